/**
 * Which capability a message needs, down to its sub-capabilities, in one table read by
 * both sides: what a server may ask of a client (sampling with tools or context, each
 * elicitation mode, roots), what a client may ask of a server (resource subscriptions,
 * logging, completions, each feature), and which notifications a peer may send (list
 * changes only where `listChanged` was declared, `notifications/roots/list_changed` only
 * with `roots.listChanged`). {@link missingCapabilities} compares a need with what a peer
 * declared and returns the part that is missing, shaped like `requiredCapabilities`.
 * Source: 2026-07-28 and 2025-11-25 client/sampling "Tools in Sampling" and "Capabilities",
 * client/elicitation "Capabilities", client/roots, server/resources "Capabilities",
 * server/tools, server/prompts, utilities/completion, server/utilities/logging;
 * 2026-07-28 basic/patterns/mrtr "Server Requirements" (no undeclared `inputRequests`).
 */
import { methodFacts, type CapabilityNeed } from './methods.js';

export type { CapabilityNeed } from './methods.js';

const LEAF: CapabilityNeed = Object.freeze({}) as CapabilityNeed;

/** Server notifications and the server capability whose flag allows each. */
const SERVER_NOTIFICATION: Readonly<Record<string, CapabilityNeed>> = {
  'notifications/tools/list_changed': { tools: { listChanged: LEAF } },
  'notifications/prompts/list_changed': { prompts: { listChanged: LEAF } },
  'notifications/resources/list_changed': { resources: { listChanged: LEAF } },
  'notifications/resources/updated': { resources: { subscribe: LEAF } },
  'notifications/message': { logging: LEAF },
};

function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The client capability a server's request needs: `sampling/createMessage` needs
 * `sampling`, plus `sampling.tools` when it carries `tools` or `toolChoice` and
 * `sampling.context` when `includeContext` is other than `"none"`; `elicitation/create`
 * needs `elicitation.form` or `elicitation.url` by its mode; `roots/list` needs `roots`.
 * Undefined for any other method.
 */
export function clientCapabilityNeeded(method: string, params: unknown): CapabilityNeed | undefined {
  switch (method) {
    case 'sampling/createMessage': {
      const sampling: CapabilityNeed = {};
      if (own(params, 'tools') !== undefined || own(params, 'toolChoice') !== undefined)
        sampling.tools = LEAF;
      const context = own(params, 'includeContext');
      if (context !== undefined && context !== 'none') sampling.context = LEAF;
      return { sampling };
    }
    case 'elicitation/create':
      return { elicitation: { [own(params, 'mode') === 'url' ? 'url' : 'form']: LEAF } };
    case 'roots/list':
      return { roots: LEAF };
    case 'notifications/roots/list_changed':
      return { roots: { listChanged: LEAF } };
    default:
      return undefined;
  }
}

/**
 * The server capability a client's request or a server's notification needs: each
 * feature method its feature (`tools`, `resources`, `prompts`, `completions`, `logging`),
 * `resources/subscribe` and `unsubscribe` `resources.subscribe`, the task methods the
 * Tasks extension, list_changed notifications their feature's `listChanged`,
 * `notifications/resources/updated` `resources.subscribe`. Undefined for any other method.
 */
export function serverCapabilityNeeded(method: string): CapabilityNeed | undefined {
  return methodFacts(method)?.capability ?? (own(SERVER_NOTIFICATION, method) as CapabilityNeed | undefined);
}

/** True when `value` is declared: present, and not `false` (server flags are booleans). */
function declaredValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/**
 * The part of `need` that `declared` does not declare, shaped like `requiredCapabilities`
 * (undefined when nothing is missing). Keys are read as own keys only. A declared
 * `elicitation: {}` counts as form mode, as the spec says (client/elicitation "Capabilities").
 */
export function missingCapabilities(declared: unknown, need: CapabilityNeed): CapabilityNeed | undefined {
  let missing: CapabilityNeed | undefined;
  for (const key of Object.keys(need)) {
    const sub = need[key]!;
    let value = own(declared, key);
    if (key === 'elicitation' && isEmptyObject(value)) value = { form: {} };
    const lack = !declaredValue(value)
      ? sub
      : Object.keys(sub).length === 0
        ? undefined
        : missingCapabilities(value, sub);
    if (lack !== undefined) (missing ??= {})[key] = lack;
  }
  return missing;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** True when `declared` declares all of `need` (see {@link missingCapabilities}). */
export function declares(declared: unknown, need: CapabilityNeed | undefined): boolean {
  return need === undefined || missingCapabilities(declared, need) === undefined;
}
