/**
 * Rules on Streamable HTTP: content types, the header checks a server must make, Origin,
 * the status codes of modern errors, legacy sessions, and authorization metadata on 401.
 */
import { ERROR_TABLE } from '../../core/index.js';
import type { Era } from '../../core/index.js';
import type { Answer, HttpProbeName, HttpSeen } from '../observations.js';
import { codeOf, described, isObject, type Hit, type Rule } from './kit.js';
import { paramMirroring } from './params.js';

const HTTP = { modern: 'basic/transports/streamable-http', legacy: 'basic/transports "Streamable HTTP"' };

function httpOnly(check: (http: HttpSeen) => Hit[]): Rule['check'] {
  return (seen) => (seen.http ? check(seen.http) : []);
}

/** The era of a request of ours: modern ones name their revision in `_meta`. */
function eraOf(answer: Answer): Era {
  const meta = (answer.request.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.['io.modelcontextprotocol/protocolVersion'] === undefined ? 'legacy' : 'modern';
}

function status(answer: Answer): string {
  return answer.http ? `HTTP ${answer.http.status}` : (answer.failure ?? 'no answer');
}

const contentType: Rule = {
  id: 'http.content-type',
  severity: 'error',
  section: {
    modern: `${HTTP.modern} "Sending Messages"`,
    legacy: `${HTTP.legacy} "Sending Messages to the Server"`,
  },
  requirement:
    'If the body is a JSON-RPC request, the server MUST return either Content-Type: application/json or text/event-stream.',
  check: httpOnly((http) =>
    http.exchanges
      .filter((a) => a.http && a.http.status < 300 && a.http.status !== 202 && a.request.id !== undefined)
      .filter(
        (a) => a.http?.contentType !== 'application/json' && a.http?.contentType !== 'text/event-stream',
      )
      .map((a) => ({
        message: `${String(a.request.method)} answered ${a.http?.status} with Content-Type ${JSON.stringify(a.http?.contentType)}`,
        era: eraOf(a),
      })),
  ),
};

/** A probe rule: the probe must get `statuses` (and `code`, when given). */
function probeRule(
  rule: Omit<Rule, 'check'>,
  probe: HttpProbeName,
  expect: { statuses: number[]; code?: number },
): Rule {
  return {
    ...rule,
    check: httpOnly((http) => {
      const answer = http.probes[probe];
      if (!answer || answer.failure?.startsWith('HTTP request failed')) return [];
      const okStatus = answer.http !== undefined && expect.statuses.includes(answer.http.status);
      const okCode = expect.code === undefined || codeOf(answer) === expect.code;
      if (okStatus && okCode) return [];
      const wanted = `${expect.statuses.join(' or ')}${expect.code === undefined ? '' : ` with ${expect.code}`}`;
      return [
        {
          message: `${probe}: got ${status(answer)} and ${described(answer)}, not ${wanted}`,
          era: eraOf(answer),
          offending: answer.response,
        },
      ];
    }),
  };
}

const mismatch = ERROR_TABLE.HeaderMismatch.code;

const methodHeader = probeRule(
  {
    id: 'http.header-mismatch',
    severity: 'error',
    section: `${HTTP.modern} "Server Validation"`,
    requirement:
      'Servers MUST reject requests where the header values do not match the body, with 400 Bad Request and HeaderMismatch (-32020).',
  },
  'methodHeaderMismatch',
  { statuses: [400], code: mismatch },
);

const missingHeader = probeRule(
  {
    id: 'http.header-missing',
    severity: 'error',
    section: `${HTTP.modern} "Server Validation"`,
    requirement:
      'Validation failure conditions include: a required standard header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) is missing.',
  },
  'missingMethodHeader',
  { statuses: [400], code: mismatch },
);

const nameHeader = probeRule(
  {
    id: 'http.name-mismatch',
    severity: 'error',
    section: `${HTTP.modern} "Server Validation"`,
    requirement:
      'Servers MUST reject requests where the Mcp-Name header does not match params.name, with 400 and HeaderMismatch (-32020).',
  },
  'nameHeaderMismatch',
  { statuses: [400], code: mismatch },
);

const origin: Rule = {
  id: 'http.origin',
  severity: 'error',
  section: { modern: `${HTTP.modern} "Security & Endpoint"`, legacy: `${HTTP.legacy} "Security Warning"` },
  requirement:
    'Servers MUST validate the Origin header; if it is present and invalid, servers MUST respond with HTTP 403 Forbidden.',
  check: httpOnly((http) => {
    const answer = http.probes.badOrigin;
    if (!answer?.http || answer.http.status === 403) return [];
    // Off loopback, a server may well accept every origin (it has to authenticate instead).
    const severity = http.loopback ? 'error' : 'info';
    return [
      {
        message: `a request with Origin http://mcpkit-check.invalid got HTTP ${answer.http.status}, not 403`,
        severity,
        era: eraOf(answer),
      },
    ];
  }),
};

const rebinding: Rule = {
  id: 'http.host',
  severity: 'error',
  section: { modern: `${HTTP.modern} "Security & Endpoint"`, legacy: `${HTTP.legacy} "Security Warning"` },
  requirement:
    'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks (a local server refuses a request naming a foreign Host and its matching Origin).',
  check: httpOnly((http) => {
    const answer = http.probes.rebinding;
    // Only on loopback, and only when a foreign Origin alone is refused (else http.origin says it).
    if (!http.loopback || !answer?.http || http.probes.badOrigin?.http?.status !== 403) return [];
    const { status } = answer.http;
    if (status >= 400 && status < 500) return [];
    return [
      {
        message: `a DNS-rebinding request (Host rebinding.mcpkit-check.invalid, Origin to match) got HTTP ${status} and ${described(answer)}, not 403: the Origin is checked against the Host, not against the hosts the server is for`,
        era: eraOf(answer),
      },
    ];
  }),
};

/** The HTTP status an era probe got, checked against the one its error must carry. */
function eraStatusRule(
  rule: Omit<Rule, 'check'>,
  probe: 'unknownMethod' | 'unknownVersion',
  wanted: number,
): Rule {
  return {
    ...rule,
    check: (seen) =>
      seen.eras.flatMap((era): Hit[] => {
        const answer = era.probes[probe];
        if (era.era !== 'modern' || !answer?.http || answer.http.status === wanted) return [];
        return [{ message: `${probe} got HTTP ${answer.http.status}, not ${wanted}`, era: 'modern' }];
      }),
  };
}

const unknownMethodStatus = eraStatusRule(
  {
    id: 'http.method-not-found-status',
    severity: 'error',
    section: `${HTTP.modern} "Protocol Version Header"`,
    requirement:
      'If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601.',
  },
  'unknownMethod',
  404,
);

const versionStatus = eraStatusRule(
  {
    id: 'http.unsupported-version-status',
    severity: 'error',
    section: `${HTTP.modern} "Protocol Version Header"`,
    requirement:
      'If the server does not implement the requested protocol version, it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError.',
  },
  'unknownVersion',
  400,
);

const notification = probeRule(
  {
    id: 'http.notification-status',
    severity: 'error',
    section: {
      modern: `${HTTP.modern} "Sending Messages"`,
      legacy: `${HTTP.legacy} "Sending Messages to the Server"`,
    },
    requirement:
      'If the input is a JSON-RPC notification and the server accepts it, the server MUST return HTTP status code 202 Accepted with no body.',
  },
  'initializedNotification',
  { statuses: [202] },
);

const noSession = probeRule(
  {
    id: 'http.session-required',
    severity: 'warning',
    section: `${HTTP.legacy} "Session Management"`,
    requirement:
      'Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id header (other than initialization) with HTTP 400 Bad Request.',
  },
  'noSession',
  { statuses: [400] },
);

const unknownSession = probeRule(
  {
    id: 'http.session-unknown',
    severity: 'warning',
    section: `${HTTP.legacy} "Session Management"`,
    requirement:
      'After a session ends, the server MUST respond to requests containing that session ID with HTTP 404 Not Found; an ID it never issued should get the same.',
  },
  'unknownSession',
  { statuses: [404] },
);

const authChallenge: Rule = {
  id: 'auth.challenge',
  severity: 'info',
  section:
    'basic/authorization/authorization-server-discovery "Protected Resource Metadata Discovery Requirements"',
  requirement:
    'Include the resource metadata URL in the WWW-Authenticate header under resource_metadata when returning 401 (or serve it at a well-known URI).',
  check: httpOnly((http) => {
    const seen = http.unauthorized;
    if (!seen || /resource_metadata=/i.test(seen.challenge)) return [];
    return [
      {
        message: `401 whose WWW-Authenticate names no resource_metadata (got ${JSON.stringify(seen.challenge)}); clients fall back to the well-known URIs`,
      },
    ];
  }),
};

const authMetadata: Rule = {
  id: 'auth.metadata',
  severity: 'error',
  section: 'basic/authorization/authorization-server-discovery "Authorization Server Location"',
  requirement:
    'The Protected Resource Metadata document MUST include the authorization_servers field containing at least one authorization server.',
  check: httpOnly((http) => {
    const seen = http.unauthorized;
    if (!seen) return [];
    if (seen.failure !== undefined) return [{ message: `answered 401, but ${seen.failure}` }];
    const servers = isObject(seen.metadata) ? seen.metadata.authorization_servers : undefined;
    if (Array.isArray(servers) && servers.length > 0 && servers.every((s) => typeof s === 'string'))
      return [];
    return [
      { message: `${seen.metadataUrl ?? 'metadata'} has no authorization_servers`, offending: seen.metadata },
    ];
  }),
};

/** The Streamable HTTP and authorization rules. */
export const HTTP_RULES: readonly Rule[] = [
  contentType,
  methodHeader,
  missingHeader,
  nameHeader,
  paramMirroring,
  origin,
  rebinding,
  unknownMethodStatus,
  versionStatus,
  notification,
  noSession,
  unknownSession,
  authChallenge,
  authMetadata,
];
