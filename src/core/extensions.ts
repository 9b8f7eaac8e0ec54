/**
 * The parts of the extension seam both sides share: the identifier rule, the typed map
 * of extension methods (augmented by each extension), the definition rules both sides'
 * `defineExtension` apply, and the one negotiation check.
 * Source: SEP-2133 "Extension Identifiers", "Negotiation"; SEP-3392 "Extension Lifecycle"
 * (stages); 2026-07-28 basic/index "_meta" (per-request `clientCapabilities`); 2025-11-25
 * basic/lifecycle (per-session capabilities).
 */
import type { Params } from './jsonrpc.js';
import type {
  GetSkillParams,
  GetSkillResult,
  ListSkillsParams,
  ListSkillsResult,
  ReadResourceDirectoryParams,
  ReadResourceDirectoryResult,
} from './types/skills.js';
import type { TaskView, UpdateTaskParams } from './tasks.js';

/**
 * Params and result of each extension method, by method name, so `client.request(method)`
 * is typed like a core method. Here: the Skills extension that mcpkit ships (SEP-2640);
 * another extension adds its methods by declaration merging, e.g. `declare module 'mcpkit'
 * { interface ExtensionRequestMap { 'acme/echo': { params: { text: string }; result:
 * { text: string } } } }` (see {@link MethodsOf}).
 */
export interface ExtensionRequestMap {
  'skills/list': { params: ListSkillsParams; result: ListSkillsResult };
  'skills/get': { params: GetSkillParams; result: GetSkillResult };
  'resources/directory/read': { params: ReadResourceDirectoryParams; result: ReadResourceDirectoryResult };
  // The Tasks extension (SEP-2663); it has no tasks/list and no tasks/result.
  'tasks/get': { params: { taskId: string }; result: TaskView };
  'tasks/update': { params: UpdateTaskParams; result: Params };
  'tasks/cancel': { params: { taskId: string }; result: Params };
}

/** The shape of one entry of {@link ExtensionRequestMap}. */
export interface ExtensionMethodTypes {
  params: object;
  result: object;
}

/**
 * `{vendor-prefix}/{extension-name}`: a dotted prefix (reverse domain) and a name of
 * letters, digits, `-`, `_` and `.` (SEP-2133 "Extension Identifiers").
 */
const IDENTIFIER =
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+\/[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;

const CORE_PREFIXES = [
  'initialize',
  'ping',
  'server/',
  'tools/',
  'prompts/',
  'completion/',
  'logging/',
  'subscriptions/',
  'notifications/',
  'sampling/',
  'elicitation/',
  'roots/',
];
const CORE_RESOURCE_METHODS = new Set([
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** True when `method` is a method name the core protocol defines (or reserves, by prefix). */
export function isCoreMethod(method: string): boolean {
  return CORE_RESOURCE_METHODS.has(method) || CORE_PREFIXES.some((p) => method.startsWith(p));
}

/**
 * The maturity stage of an extension (SEP-3392 "Extension Lifecycle"): `'experimental'`
 * (no stability promise; may break at any time), `'beta'` (entered by an Extensions Track
 * SEP; may still make breaking changes with its maintainers' approval) or `'stable'`
 * (changes only with a new core protocol revision). The stage is documentation for
 * implementers: it is shown by the folder of the extension's specification and never sent
 * on the wire (SEP-3392 does not change negotiation), so mcpkit keeps it in the
 * definition only.
 */
export type ExtensionStage = 'experimental' | 'beta' | 'stable';

/** The stages of SEP-3392, in order; an extension starts at the first. */
const EXTENSION_STAGES: readonly ExtensionStage[] = Object.freeze(['experimental', 'beta', 'stable']);

/**
 * What is wrong with an extension definition of identifier `id` adding `methods` at
 * `stage` (undefined: the default, experimental), or undefined: a malformed identifier, a
 * method name the core protocol defines, or a stage SEP-3392 does not define.
 */
export function extensionDefinitionProblem(
  id: string,
  methods: readonly string[],
  stage?: unknown,
): string | undefined {
  if (!isExtensionIdentifier(id)) return `extension id '${id}' is not {vendor-prefix}/{name}`;
  if (stage !== undefined && !EXTENSION_STAGES.includes(stage as ExtensionStage))
    return `extension '${id}' has stage ${JSON.stringify(stage)}: use 'experimental', 'beta' or 'stable'`;
  const core = methods.find(isCoreMethod);
  return core === undefined ? undefined : `extension method '${core}' is a core method name`;
}

/** True when `id` is a well-formed extension identifier (`com.example/my-extension`). */
export function isExtensionIdentifier(id: string): boolean {
  return id.length <= 256 && IDENTIFIER.test(id);
}

/**
 * The settings a peer declared for extension `id` in `capabilities.extensions`, or
 * undefined when it did not declare it (own keys only; a non-object value counts as not
 * declared, since settings are always an object, `{}` when there are none). Pass the
 * client's capabilities of one request (modern) or of its session (legacy) on the server,
 * the server's capabilities on the client.
 */
export function extensionSettings(capabilities: unknown, id: string): Params | undefined {
  const extensions = ownValue(capabilities, 'extensions');
  const settings = ownValue(extensions, id);
  return typeof settings === 'object' && settings !== null && !Array.isArray(settings)
    ? (settings as Params)
    : undefined;
}

function ownValue(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
