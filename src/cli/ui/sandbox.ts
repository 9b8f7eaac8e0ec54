/**
 * The sandbox origin of the inspector's Apps view: a second listener on 127.0.0.1 (another
 * port, so another origin than the inspector page) serving the sandbox proxy of one open
 * view at `/sandbox/<viewId>`, with that view's Content-Security-Policy as an HTTP header.
 * The proxy loads the view's HTML into an inner iframe (`srcdoc`, which inherits the
 * proxy's policy; the same policy is also put first in the document) and relays JSON-RPC
 * both ways, keeping `ui/notifications/sandbox-*` to itself.
 * Source: ext-apps specification 2026-01-26 "Sandbox proxy", "Reserved Messages".
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the sandbox needs of an open view. */
export interface SandboxView {
  /** The view's policy (`appCspHeader`). */
  readonly csp: string;
  /** The inner iframe's `allow` attribute. */
  readonly allow: string;
}

/** A running sandbox origin. */
export interface SandboxOrigin {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** The proxy: tells the host it is ready, loads the HTML it is sent, relays the rest. */
function proxyScript(host: string, allow: string): string {
  return `(() => {
  const host = ${JSON.stringify(host)};
  let inner;
  const reserved = (m) => typeof m?.method === 'string' && m.method.startsWith('ui/notifications/sandbox-');
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === host) {
      const m = event.data;
      if (m?.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner || typeof m.params?.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts allow-forms');
        if (${JSON.stringify(allow)}) inner.setAttribute('allow', ${JSON.stringify(allow)});
        inner.srcdoc = withPolicy(m.params.html);
        document.body.appendChild(inner);
      } else if (!reserved(m) && inner) inner.contentWindow.postMessage(m, '*');
    } else if (inner && event.source === inner.contentWindow && !reserved(event.data)) {
      window.parent.postMessage(event.data, host);
    }
  });
  const policy = document.querySelector('meta[name=view-policy]').content;
  function withPolicy(html) {
    const meta = '<meta http-equiv="Content-Security-Policy" content="' + policy.replace(/"/g, '&quot;') + '">';
    const doctype = /^\\s*<!doctype[^>]*>/i.exec(html);
    return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
  }
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
})();`;
}

const escapeAttr = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(view: SandboxView, host: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta name="view-policy" content="${escapeAttr(view.csp)}">` +
    `<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head>` +
    `<body><script>${proxyScript(host, view.allow)}</script></body></html>`
  );
}

/**
 * Starts the sandbox origin for the inspector at `host` (its `http://127.0.0.1:<port>`);
 * `viewOf(viewId)` finds an open view. Unknown views, other paths and a foreign `Host` get 404/403.
 */
export async function startSandbox(
  host: string,
  viewOf: (viewId: string) => SandboxView | undefined,
): Promise<SandboxOrigin> {
  let self = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== self) return void res.writeHead(403).end();
    const match = /^\/sandbox\/([A-Za-z0-9-]{1,64})$/.exec(req.url ?? '');
    const view = match?.[1] === undefined ? undefined : viewOf(match[1]);
    if (!view || req.method !== 'GET') return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `${view.csp}; frame-ancestors ${host}`,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      })
      .end(page(view, host));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  self = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin: `http://${self}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
