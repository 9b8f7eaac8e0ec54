/**
 * Checks a received message against the official schema of its revision, using the
 * definition for what it answers (`ListToolsResult` for a `tools/list` response, …):
 * errors point at the exact field, and only the definitions needed are compiled.
 */
import type { ValidateFunction } from 'ajv';
import { officialSchemaAjv, type WireRevision } from '../testing/runtime.js';
import type { Json } from './observations.js';

/** The result definition of each method the checker sends. */
const RESULT_DEFS: Readonly<Record<string, string>> = {
  'server/discover': 'DiscoverResult',
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'prompts/list': 'ListPromptsResult',
  'tools/call': 'CallToolResult',
  'prompts/get': 'GetPromptResult',
  'resources/read': 'ReadResourceResult',
  ping: 'EmptyResult',
};

type Ajv = ReturnType<typeof officialSchemaAjv>;
const ajvs = new Map<WireRevision, Ajv>();
const validators = new Map<string, ValidateFunction>();

function ajvFor(revision: WireRevision): Ajv {
  let ajv = ajvs.get(revision);
  if (!ajv) ajvs.set(revision, (ajv = officialSchemaAjv(revision)));
  return ajv;
}

/** The definition a message is checked against, given the method of the request it answers. */
function definitionFor(message: Json, answering: string | undefined, defs: Json): object {
  const ref = (name: string): object => ({ $ref: `mcp#/$defs/${name}` });
  if (Object.hasOwn(message, 'error')) return ref('JSONRPCErrorResponse');
  if (!Object.hasOwn(message, 'result'))
    return ref(Object.hasOwn(message, 'id') ? 'ServerRequest' : 'ServerNotification');
  const result = answering === undefined ? undefined : RESULT_DEFS[answering];
  if (result === undefined) return ref('JSONRPCResultResponse');
  if (Object.hasOwn(defs, `${result}Response`)) return ref(`${result}Response`);
  return {
    type: 'object',
    required: ['jsonrpc', 'id', 'result'],
    properties: { jsonrpc: { const: '2.0' }, id: ref('RequestId'), result: ref(result) },
  };
}

/** ajv's errors for `message` as `<path> <message>` lines; empty when it is valid. */
export function wireProblems(
  revision: WireRevision,
  message: unknown,
  answering: string | undefined,
): string[] {
  const ajv = ajvFor(revision);
  const defs = ((ajv.getSchema('mcp')?.schema ?? {}) as { $defs?: Json }).$defs ?? {};
  const isJson = typeof message === 'object' && message !== null && !Array.isArray(message);
  const definition = isJson
    ? definitionFor(message as Json, answering, defs)
    : { $ref: 'mcp#/$defs/JSONRPCMessage' };
  const key = `${revision} ${JSON.stringify(definition)}`;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(definition)));
  if (validate(message)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
