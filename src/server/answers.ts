/**
 * Checking the client's answers to what a handler asked (elicitation, sampling, roots),
 * the same way on both eras: a legacy session's response to a server-initiated request and
 * a modern retry's `inputResponses` entry go through {@link checkInputAnswer}, so a
 * handler never sees an answer the other era would have refused.
 * Source: 2025-11-25 and 2026-07-28 client/elicitation ("Response Actions", form mode
 * `content` MUST match `requestedSchema`), client/sampling (CreateMessageResult),
 * client/roots (Root: `uri` MUST be a `file://` URI).
 */
import {
  WireError,
  type Era,
  type ClientCapabilities,
  type ElicitRequestParams,
  type Params,
} from '../core/index.js';
import {
  clientCapabilityNeeded,
  isObject,
  missingCapabilities,
  missingCapabilityError,
} from '../core/runtime.js';
import { compileJsonSchema, compileSchema, type SchemaLimits } from '../validation/index.js';

/** The client requests a handler can make through its context. */
export type AskedMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/**
 * A question a handler asked: its method and params, and the server's `limits.schema`,
 * which bound an elicitation's `requestedSchema` as they bound the tools' own schemas.
 */
export interface AskedQuestion {
  method: AskedMethod;
  params: Params;
  limits?: SchemaLimits | undefined;
}

/**
 * Resolves with `answer` when it is a valid result for the question, else rejects.
 * `where` names the answer in the error (`inputResponses.elicitation-1`, or the method).
 * @throws WireError -32602 describing what is wrong with the answer.
 */
export async function checkInputAnswer(
  question: AskedQuestion,
  answer: unknown,
  where: string,
): Promise<Params> {
  const problem = isObject(answer) ? await problemOf(question, answer) : 'the answer must be an object';
  if (problem !== undefined) throw WireError.of('InvalidParams', `${where}: ${problem}`);
  return answer as Params;
}

/**
 * What of a question {@link checkInputAnswer} needs, to seal with the question in
 * `requestState` so that its answer on the retry is checked against what was asked: an
 * elicitation's `mode` and `requestedSchema`, whether a sampling request offered tools.
 */
export function questionShape(method: AskedMethod, params: Params): Params {
  if (method === 'elicitation/create') {
    const shape: Params = {};
    if (params.mode !== undefined) shape.mode = params.mode;
    if (params.requestedSchema !== undefined) shape.requestedSchema = params.requestedSchema;
    return shape;
  }
  if (method === 'sampling/createMessage')
    return Array.isArray(params.tools) && params.tools.length > 0 ? { tools: [{}] } : {};
  return {};
}

/** True for the methods a handler may ask the client through its context. */
export function isAskedMethod(method: unknown): method is AskedMethod {
  return typeof method === 'string' && ASKED_METHODS.has(method);
}

async function problemOf(question: AskedQuestion, answer: Params): Promise<string | undefined> {
  switch (question.method) {
    case 'elicitation/create':
      return elicitationProblem(question.params, answer, question.limits);
    case 'sampling/createMessage':
      return samplingProblem(question.params, answer);
    case 'roots/list':
      return rootsProblem(answer);
  }
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

async function elicitationProblem(
  params: Params,
  answer: Params,
  limits: SchemaLimits | undefined,
): Promise<string | undefined> {
  if (typeof answer.action !== 'string' || !ACTIONS.has(answer.action)) {
    return 'action must be accept, decline or cancel';
  }
  if (answer.action !== 'accept' || params.mode === 'url') return undefined;
  const content = answer.content ?? {};
  if (!isObject(content)) return 'content must be an object';
  const schema = params.requestedSchema;
  if (!isObject(schema)) return undefined;
  const outcome = await compileJsonSchema(schema, limits)(content);
  return outcome.ok ? undefined : `content does not match the requested schema: ${outcome.issues.join('; ')}`;
}

function samplingProblem(params: Params, answer: Params): string | undefined {
  if (typeof answer.model !== 'string') return 'model must be a string';
  if (answer.role !== 'assistant' && answer.role !== 'user') return 'role must be assistant or user';
  const content = answer.content;
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  if (blocks.length === 0 || !blocks.every((b) => isObject(b) && typeof b.type === 'string')) {
    return 'content must be a content block (or a non-empty list of them) with a type';
  }
  // A model can only ask to use tools it was offered (client/sampling "Tools in Sampling").
  if (Array.isArray(params.tools) && params.tools.length > 0) return undefined;
  if (answer.stopReason === 'toolUse') return 'stopReason is "toolUse", but the request offered no tools';
  if (blocks.some((b) => (b as Params).type === 'tool_use'))
    return 'content has a tool_use block, but the request offered no tools';
  return undefined;
}

function rootsProblem(answer: Params): string | undefined {
  if (!Array.isArray(answer.roots)) return 'roots must be a list';
  for (const [i, root] of (answer.roots as unknown[]).entries()) {
    if (!isObject(root) || typeof root.uri !== 'string' || !root.uri.startsWith('file://')) {
      return `roots[${i}].uri must be a file:// URI`;
    }
    if (root.name !== undefined && typeof root.name !== 'string') return `roots[${i}].name must be a string`;
  }
  return undefined;
}

/** Holds a JSON Schema `requestedSchema` to the server's schema limits before it is sent. */
export function checkRequestedSchema(params: ElicitRequestParams, limits: SchemaLimits | undefined): void {
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  if (params.mode === 'url' || typeof schema !== 'object' || schema === null) return;
  compileSchema(schema as Record<string, unknown>, limits, 'elicitation requestedSchema');
}

/**
 * The client capability this input request needs and the client did not declare, as a
 * `requiredCapabilities` object (sub-capabilities included: `sampling.tools`,
 * `sampling.context`, each elicitation mode); undefined when the client declared it.
 */
export function missingCapability(
  caps: ClientCapabilities,
  method: AskedMethod,
  params: object,
): Record<string, unknown> | undefined {
  const need = clientCapabilityNeeded(method, params);
  return need === undefined ? undefined : missingCapabilities(caps, need);
}

/**
 * Checks the input requests of a handler's explicit `input_required` answer as `ctx.*`
 * calls are checked: each must be an input request method the client declared.
 * @throws WireError -32021 (legacy: -32600) naming the first missing capability; -32603 for
 *   a request that is not an input request.
 */
export function checkInputRequests(
  caps: ClientCapabilities,
  era: Era,
  requests: Readonly<Record<string, { method: string; params?: unknown }>>,
): void {
  for (const [key, request] of Object.entries(requests)) {
    if (!ASKED_METHODS.has(request.method))
      throw WireError.of('InternalError', `inputRequests.${key}: ${request.method} is not an input request`);
    const missing = missingCapability(caps, request.method as AskedMethod, request.params ?? {});
    if (missing) throw capabilityError(era, missing);
  }
}

const ASKED_METHODS: ReadonlySet<string> = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

/** The error for a missing capability: -32021 exists only from 2026-07-28 on; legacy sessions get -32600 with the same data. */
export function capabilityError(era: Era, required: Record<string, unknown>): WireError {
  if (era === 'modern') return missingCapabilityError(required);
  return WireError.of('InvalidRequest', `The client did not declare the capability this request needs`, {
    requiredCapabilities: required,
  });
}

/** The error for a method whose handler may not ask the client for input. */
export function noInputOn(method: string): WireError {
  return WireError.of(
    'InternalError',
    `${method} cannot ask the client for input; only tools/call, resources/read and prompts/get can`,
  );
}
