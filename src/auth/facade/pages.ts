/**
 * The façade's own pages: the consent page shown for a client before the user is sent to the
 * upstream provider, and the error page for a request whose redirect URI is not validated
 * (never redirected: no open redirect). Both refuse framing (clickjacking) and caching.
 * Source: 2026-07-28 basic/authorization/security-considerations "Confused Deputy Problem",
 * "Open Redirection", "Client ID Metadata Document Security" (show the redirect URI's host).
 */
import type { GuardResponse } from '../../server/http/index.js';
import { NO_STORE } from './context.js';

/** Headers of every HTML page: no framing, no scripts, no caching. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  ...NO_STORE,
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width"><style>body{font:16px system-ui;max-width:36rem;margin:3rem auto;padding:0 1rem}
button{font:inherit;padding:.5rem 1.2rem;margin-right:.5rem}code{background:#eee;padding:0 .2rem}</style></head><body>${body}</body></html>`;
}

/** What the consent page shows and posts. */
interface ConsentView {
  action: string;
  pending: string;
  csrf: string;
  clientName: string;
  clientId: string;
  redirectUri: string;
  upstream: string;
  resource: string;
  scopes: string[];
}

/** The consent page (200), for a client the user has not approved in this browser. */
export function consentPage(view: ConsentView, cookie: string): GuardResponse {
  const redirect = new URL(view.redirectUri);
  const local =
    redirect.protocol === 'http:'
      ? '<p><strong>Warning:</strong> this client receives the answer on your own machine; approve only a program you started.</p>'
      : '';
  const body = `<h1>Allow ${escape(view.clientName)}?</h1>
<p>The application <strong>${escape(view.clientName)}</strong> (<code>${escape(view.clientId)}</code>) asks to use
<code>${escape(view.resource)}</code> on your behalf${view.scopes.length ? ` with scopes <code>${escape(view.scopes.join(' '))}</code>` : ''}.</p>
<p>After you approve, you sign in at <strong>${escape(view.upstream)}</strong>, and the application gets its answer at
<strong>${escape(redirect.host || redirect.protocol)}</strong> (<code>${escape(view.redirectUri)}</code>).</p>${local}
<form method="post" action="${escape(view.action)}">
<input type="hidden" name="pending" value="${escape(view.pending)}"><input type="hidden" name="csrf" value="${escape(view.csrf)}">
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  return {
    status: 200,
    headers: { ...PAGE_HEADERS, 'set-cookie': cookie },
    body: page('Authorize application', body),
  };
}

/** The error page (400 unless told), for what cannot be redirected back to the client. */
export function errorPage(description: string, status = 400): GuardResponse {
  return {
    status,
    headers: PAGE_HEADERS,
    body: page('Authorization error', `<h1>Authorization error</h1><p>${escape(description)}</p>`),
  };
}
