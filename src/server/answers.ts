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
import { missingCapabilityError, isObject } from '../core/runtime.js';
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

async function problemOf(question: AskedQuestion, answer: Params): Promise<string | undefined> {
  switch (question.method) {
    case 'elicitation/create':
      return elicitationProblem(question.params, answer, question.limits);
    case 'sampling/createMessage':
      return samplingProblem(answer);
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

function samplingProblem(answer: Params): string | undefined {
  if (typeof answer.model !== 'string') return 'model must be a string';
  if (answer.role !== 'assistant' && answer.role !== 'user') return 'role must be assistant or user';
  const content = answer.content;
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  if (blocks.length === 0 || !blocks.every((b) => isObject(b) && typeof b.type === 'string')) {
    return 'content must be a content block (or a non-empty list of them) with a type';
  }
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

/** The capability the client lacks for this input request, as a `requiredCapabilities` object. */
export function missingCapability(
  caps: ClientCapabilities,
  capability: string,
  params: object,
): Record<string, unknown> | undefined {
  const declared = caps[capability as keyof ClientCapabilities] as Record<string, unknown> | undefined;
  if (declared === undefined) return { [capability]: {} };
  if (capability !== 'elicitation') return undefined;
  // An empty elicitation capability means form mode only (2025-11-25 client/elicitation).
  const mode = (params as { mode?: unknown }).mode === 'url' ? 'url' : 'form';
  const modes = Object.keys(declared);
  const ok = mode === 'url' ? modes.includes('url') : modes.length === 0 || modes.includes('form');
  return ok ? undefined : { elicitation: { [mode]: {} } };
}

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
