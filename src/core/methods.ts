/**
 * The client→server request methods mcpkit knows, with the facts each layer reads about
 * them, in one frozen table: the server capability a method needs, whether its result is
 * cacheable, whether it may answer `input_required`, which params field names its target
 * (what `Mcp-Name` mirrors, what scopes and spans are keyed by), the eras it exists in,
 * and whether it belongs to the Tasks extension. Server dispatch, the client, the
 * gateway, tracing and the scope filter all read it, so a new core method is one row here
 * (plus its types in `types/maps.ts` and its handler).
 * Every lookup is one own-key read of a frozen object: nothing is built per request.
 * Source: 2026-07-28 schema (ClientRequest), server/tools, server/resources, server/prompts,
 * utilities/completion, basic/patterns/mrtr "Supported Requests", basic/transports/
 * streamable-http "Request Metadata"; 2025-11-25 schema (ClientRequest); SEP-2663 (Tasks).
 */
import { TASKS_EXTENSION } from './tasks.js';

/** A capability requirement: nested names whose leaves are `{}`, e.g. `{ sampling: { tools: {} } }`. */
export interface CapabilityNeed {
  [name: string]: CapabilityNeed;
}

/** The eras a method exists in: `both`, or only the `modern` (2026-07-28) or `legacy` (2025-11-25) wire. */
export type MethodEras = 'both' | 'modern' | 'legacy';

/** The params field that names a request's target: a tool or prompt `name`, a resource `uri`, a `taskId`. */
export type TargetField = 'name' | 'uri' | 'taskId';

/** What the layers need to know about one client→server request method. */
export interface MethodFacts {
  /**
   * The server capability the method needs, shaped like `requiredCapabilities`
   * (`{ tools: {} }`, `{ resources: { subscribe: {} } }`); undefined when it needs none.
   */
  readonly capability: CapabilityNeed | undefined;
  /** The top-level feature the method belongs to (`tools`, `prompts`, …), when it has one. */
  readonly feature: 'tools' | 'resources' | 'prompts' | 'completions' | 'logging' | undefined;
  /** The result may carry `ttlMs`/`cacheScope` on the modern wire. */
  readonly cacheable: boolean;
  /** The server may answer `input_required` (basic/patterns/mrtr "Supported Requests"). */
  readonly input: boolean;
  /** The params field that names the target, mirrored by `Mcp-Name`; undefined when none. */
  readonly target: TargetField | undefined;
  /** For a list method: the result's array key, and the method that fetches one entry by its target. */
  readonly list: { readonly key: string; readonly entry: string } | undefined;
  /** The eras the method exists in. */
  readonly eras: MethodEras;
  /** A method of the Tasks extension (SEP-2663), served only when both sides negotiated it. */
  readonly task: boolean;
}

const LEAF = Object.freeze({}) as CapabilityNeed;

function need(feature: string, sub?: string): CapabilityNeed {
  return Object.freeze({
    [feature]: sub === undefined ? LEAF : Object.freeze({ [sub]: LEAF }),
  }) as CapabilityNeed;
}

const BASE: MethodFacts = {
  capability: undefined,
  feature: undefined,
  cacheable: false,
  input: false,
  target: undefined,
  list: undefined,
  eras: 'both',
  task: false,
};

function row(facts: Partial<MethodFacts>): MethodFacts {
  return Object.freeze({ ...BASE, ...facts });
}

const tools = { capability: need('tools'), feature: 'tools' } as const;
const resources = { capability: need('resources'), feature: 'resources' } as const;
const prompts = { capability: need('prompts'), feature: 'prompts' } as const;
const subscribe = {
  capability: need('resources', 'subscribe'),
  feature: 'resources',
  eras: 'legacy',
} as const;
const task = {
  capability: need('extensions', TASKS_EXTENSION),
  target: 'taskId',
  eras: 'modern',
  task: true,
} as const;

/** Every client→server request method mcpkit knows, by name. Frozen, with no prototype. */
export const METHODS: Readonly<Record<string, MethodFacts>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, MethodFacts>, {
    initialize: row({ eras: 'legacy' }),
    ping: row({ eras: 'legacy' }),
    'server/discover': row({ cacheable: true, eras: 'modern' }),
    'subscriptions/listen': row({ eras: 'modern' }),
    'tools/list': row({ ...tools, cacheable: true, list: { key: 'tools', entry: 'tools/call' } }),
    'tools/call': row({ ...tools, input: true, target: 'name' }),
    'resources/list': row({
      ...resources,
      cacheable: true,
      list: { key: 'resources', entry: 'resources/read' },
    }),
    'resources/templates/list': row({ ...resources, cacheable: true }),
    'resources/read': row({ ...resources, cacheable: true, input: true, target: 'uri' }),
    'resources/subscribe': row(subscribe),
    'resources/unsubscribe': row(subscribe),
    'prompts/list': row({ ...prompts, cacheable: true, list: { key: 'prompts', entry: 'prompts/get' } }),
    'prompts/get': row({ ...prompts, input: true, target: 'name' }),
    'completion/complete': row({ capability: need('completions'), feature: 'completions' }),
    'logging/setLevel': row({ capability: need('logging'), feature: 'logging', eras: 'legacy' }),
    'tasks/get': row(task),
    'tasks/update': row(task),
    'tasks/cancel': row(task),
  }),
);

/** The facts of `method`, or undefined for a method the table does not hold (an extension's). */
export function methodFacts(method: string): MethodFacts | undefined {
  return METHODS[method];
}

function methodsWhere(test: (facts: MethodFacts) => boolean): ReadonlySet<string> {
  return new Set(Object.keys(METHODS).filter((m) => test(METHODS[m]!)));
}

/** Methods on which a server may answer `input_required` (basic/patterns/mrtr "Supported Requests"). */
export const INPUT_METHODS: ReadonlySet<string> = methodsWhere((f) => f.input);

/** The Tasks extension's methods (SEP-2663): `tasks/get`, `tasks/update`, `tasks/cancel`. */
export const TASK_METHODS: ReadonlySet<string> = methodsWhere((f) => f.task);

/** Methods whose results are cacheable (carry `ttlMs`/`cacheScope` on the modern wire). */
export const CACHEABLE_METHODS: ReadonlySet<string> = methodsWhere((f) => f.cacheable);

/** The core methods a modern server serves itself (not the Tasks extension's, not legacy-only ones). */
export const MODERN_CORE_METHODS: ReadonlySet<string> = methodsWhere((f) => f.eras !== 'legacy' && !f.task);

/** The value of the params field naming a request's target (see {@link MethodFacts.target}), or undefined. */
export function targetOf(method: string, params: object | undefined): unknown {
  const field = METHODS[method]?.target;
  return field === undefined || params === undefined ? undefined : (params as Record<string, unknown>)[field];
}
