/**
 * Rules on the wire and the handshake: every message against the negotiated revision's
 * schema, stdout hygiene, the eras and versions the server opens, and capabilities
 * against what the server does.
 */
import { LEGACY_REVISIONS, MODERN_REVISIONS, META } from '../../core/index.js';
import type { WireRevision } from '../../testing/runtime.js';
import { wireProblems } from '../wire-check.js';
import { LIST_METHODS, type ListMethod } from '../observations.js';
import { UNKNOWN_VERSION } from '../requests.js';
import { codeOf, described, isObject, perEra, resultOf, type Hit, type Rule } from './kit.js';

const SCHEMAS: readonly string[] = ['2026-07-28', '2025-11-25'];
/** At most this many schema findings, so a server that gets every message wrong stays readable. */
const MAX_SCHEMA_HITS = 50;

const wireSchema: Rule = {
  id: 'wire.schema',
  severity: 'error',
  section: 'basic "Schema"',
  requirement:
    'The schema is the source of truth for all protocol messages and structures (schema.json is generated from it).',
  check(seen) {
    const hits: Hit[] = [];
    const methods = new Map<unknown, string>();
    for (const entry of seen.wire) {
      const sent = entry.message as { id?: unknown; method?: unknown };
      if (entry.direction === 'sent' && typeof sent.method === 'string')
        methods.set(`${entry.revision} ${String(sent.id)}`, sent.method);
      if (entry.direction !== 'received' || entry.revision === undefined || !SCHEMAS.includes(entry.revision))
        continue;
      const id = (entry.message as { id?: unknown }).id;
      const errors = wireProblems(
        entry.revision as WireRevision,
        entry.message,
        methods.get(`${entry.revision} ${String(id)}`),
      );
      if (errors.length === 0) continue;
      const era = MODERN_REVISIONS.includes(entry.revision as never) ? 'modern' : 'legacy';
      hits.push({
        message: `not a valid ${entry.revision} message: ${errors.slice(0, 3).join('; ')}`,
        era,
        offending: entry.message,
      });
      if (hits.length >= MAX_SCHEMA_HITS) break;
    }
    return hits;
  },
};

const wireNoSchema: Rule = {
  id: 'wire.no-schema',
  severity: 'info',
  section: 'basic/versioning "Protocol Version Negotiation"',
  requirement: 'The checker holds the schemas of 2026-07-28 and 2025-11-25 only.',
  check: (seen) =>
    perEra(seen, (era) =>
      SCHEMAS.includes(era.revision)
        ? []
        : [
            {
              message: `negotiated ${era.revision}: its messages were not checked against a schema`,
              era: era.era,
            },
          ],
    ),
};

/** What the server sent that was not JSON-RPC, each text once, with how often it came. */
function junkHits(junk: readonly string[], over: Pick<Hit, 'section' | 'requirement'>): Hit[] {
  const counts = new Map<string, number>();
  for (const text of junk) counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].map(([text, count]) => ({
    message: `not a JSON-RPC message${count > 1 ? ` (${count} times)` : ''}: ${text}`,
    offending: text,
    ...over,
  }));
}

const wireJunk: Rule = {
  id: 'wire.not-json-rpc',
  severity: 'error',
  section: 'basic/transports/stdio',
  requirement: 'The server MUST NOT write anything to its stdout that is not a valid MCP message.',
  check: (seen) =>
    junkHits(
      seen.junk,
      seen.http
        ? {
            section: {
              modern: 'basic/transports/streamable-http "Sending Messages"',
              legacy: 'basic/transports "Streamable HTTP" "Sending Messages to the Server"',
            },
            requirement:
              'If the body is a JSON-RPC request, the server MUST return either Content-Type: application/json (a single JSON object) or Content-Type: text/event-stream (an SSE response stream).',
          }
        : {},
    ),
};

const noEra: Rule = {
  id: 'handshake.no-era',
  severity: 'error',
  section: { modern: 'server/discover', legacy: 'basic/lifecycle "Initialization"' },
  requirement:
    'Servers MUST implement server/discover (modern); the initialization phase MUST be the first interaction (legacy).',
  check: (seen) =>
    seen.eras.length > 0
      ? []
      : seen.http?.unauthorized
        ? [
            {
              message: 'answered 401 Unauthorized: give --token (or --header) to check the rest',
              severity: 'info',
            },
          ]
        : seen.refused.map((r) => ({
            message: `${r.era === 'modern' ? 'server/discover' : 'initialize'} got ${described(r.answer)}`,
            era: r.era,
            offending: r.answer.response,
          })),
};

const erasServed: Rule = {
  id: 'handshake.eras',
  severity: 'info',
  section: 'basic/versioning "Backward Compatibility with Initialization-Based Versions"',
  requirement: 'A server that wishes to support both legacy and modern clients MAY implement both behaviors.',
  check: (seen) =>
    seen.eras.length === 0
      ? []
      : seen.refused.map((r) => ({
          message: `does not serve the ${r.era} era (${r.era === 'modern' ? 'server/discover' : 'initialize'} got ${described(r.answer)})`,
          era: r.era,
        })),
};

const serverInfo: Rule = {
  id: 'handshake.server-info',
  severity: 'warning',
  section: 'server/discover "DiscoverResult"',
  requirement:
    "_meta['io.modelcontextprotocol/serverInfo']: Name and version of the server software. Servers SHOULD include this field.",
  check: (seen) =>
    perEra(seen, (era) => {
      if (era.era !== 'modern') return [];
      const meta = resultOf(era.opening)?._meta;
      return isObject(meta) && isObject(meta[META.serverInfo])
        ? []
        : [
            {
              message: 'DiscoverResult has no serverInfo in _meta',
              era: 'modern',
              offending: era.opening.response,
            },
          ];
    }),
};

const unknownVersion: Rule = {
  id: 'handshake.unknown-version',
  severity: 'error',
  section: {
    modern: 'basic/versioning "Protocol Version Negotiation"',
    legacy: 'basic/lifecycle "Version Negotiation"',
  },
  requirement:
    'Modern: an unsupported version MUST get UnsupportedProtocolVersionError (-32022) listing the supported versions. Legacy: otherwise, the server MUST respond with another protocol version it supports.',
  check: (seen) =>
    perEra(seen, (era): Hit[] => {
      const answer = era.probes.unknownVersion;
      if (!answer) return [];
      const offending = answer.response;
      if (era.era === 'modern') {
        const data = (answer.response?.error as { data?: unknown } | undefined)?.data;
        if (codeOf(answer) === -32022 && isObject(data) && Array.isArray(data.supported)) return [];
        return [
          {
            message: `a request for ${UNKNOWN_VERSION} got ${described(answer)}, not -32022 with data.supported`,
            era: 'modern',
            offending,
          },
        ];
      }
      const version = resultOf(answer)?.protocolVersion;
      if (typeof version === 'string' && version !== UNKNOWN_VERSION) return [];
      return [
        {
          message: `initialize offering ${UNKNOWN_VERSION} got ${described(answer)}, not a version the server supports`,
          era: 'legacy',
          offending,
        },
      ];
    }),
};

const legacyVersion: Rule = {
  id: 'handshake.version',
  severity: 'warning',
  section: 'basic/lifecycle "Version Negotiation"',
  requirement:
    'If the server supports the requested protocol version, it MUST respond with the same version.',
  check: (seen) =>
    perEra(seen, (era) =>
      era.era === 'legacy' && !LEGACY_REVISIONS.includes(era.revision as never)
        ? [
            {
              message: `initialize answered ${era.revision}, a revision the checker does not know`,
              era: 'legacy',
            },
          ]
        : [],
    ),
};

/** The capability each list method belongs to. */
function capabilityOf(method: ListMethod): string {
  return method.split('/')[0] ?? '';
}

const unserved: Rule = {
  id: 'capabilities.unserved',
  severity: 'error',
  section: 'server/tools "Listing Tools" (and prompts, resources)',
  requirement:
    'Servers that declare the `tools` capability MUST respond to `tools/list` requests with the set of tools currently available.',
  check: (seen) =>
    perEra(seen, (era) =>
      (Object.keys(LIST_METHODS) as ListMethod[]).flatMap((method): Hit[] => {
        const walk = era.lists[method];
        if (!walk || walk.ended !== 'error' || !Object.hasOwn(era.capabilities, capabilityOf(method)))
          return [];
        const last = walk.pages.at(-1);
        return [
          {
            message: `declares ${capabilityOf(method)} but ${method} got ${described(last)}`,
            era: era.era,
            offending: last?.response,
          },
        ];
      }),
    ),
};

const undeclared: Rule = {
  id: 'capabilities.undeclared',
  severity: 'error',
  section: 'server/tools "Capabilities" (and prompts, resources)',
  requirement: 'Servers that support tools MUST declare the `tools` capability.',
  check: (seen) =>
    perEra(seen, (era) =>
      (Object.keys(LIST_METHODS) as ListMethod[]).flatMap((method): Hit[] => {
        const walk = era.lists[method];
        if (!walk || walk.items.length === 0 || Object.hasOwn(era.capabilities, capabilityOf(method)))
          return [];
        return [
          {
            message: `lists ${walk.items.length} item(s) on ${method} without declaring the ${capabilityOf(method)} capability`,
            era: era.era,
          },
        ];
      }),
    ),
};

/** The wire, handshake and capability rules. */
export const PROTOCOL_RULES: readonly Rule[] = [
  wireSchema,
  wireNoSchema,
  wireJunk,
  noEra,
  erasServed,
  serverInfo,
  unknownVersion,
  legacyVersion,
  unserved,
  undeclared,
];
