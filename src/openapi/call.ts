/**
 * Sends one operation's request and turns the answer into a tool result. A 2xx JSON answer
 * is the structured result (checked against the operation's output schema); anything else —
 * a non-2xx status, a body that is not the JSON promised, a body over the size bound, a
 * timeout, a network failure — is an error result naming the operation and what happened.
 * Configured secrets are removed from every text that leaves here.
 * Source: MCP 2026-07-28 server/tools ("Error Handling", "Structured Content").
 */
import { LocalError, type ContentBlock } from '../core/index.js';
import { errorResult, type ToolResult } from '../server/index.js';
import type { CompiledSchema } from '../validation/index.js';
import { isJson, type OperationSpec } from './operations.js';
import { prepareRequest, type Upstream } from './request.js';

/** What one call needs besides the arguments. */
export interface CallSetup {
  upstream: Upstream;
  fetch: typeof fetch;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Strings that must never appear in a result (tokens, passwords, API keys). */
  redact: (text: string) => string;
  /** The compiled output schema of the operation, when it has one. */
  output?: CompiledSchema;
}

/** An upstream answer read within the bounds. */
export interface Answer {
  status: number;
  statusText: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** Longest excerpt of an error body shown to the model. */
const EXCERPT = 1000;

/** Calls `operation` with checked `args`; never throws for upstream trouble. */
export async function callOperation(
  operation: OperationSpec,
  args: Record<string, unknown>,
  context: { setup: CallSetup; signal: AbortSignal },
): Promise<ToolResult> {
  const { setup } = context;
  const fail = (what: string): ToolResult =>
    errorResult(setup.redact(`${operation.name} (${operation.key}): ${what}`));
  let answer: Answer;
  try {
    answer = await send(operation, args, context);
  } catch (error) {
    return fail(failure(error, setup.timeoutMs));
  }
  const status = `${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`;
  if (answer.status < 200 || answer.status > 299)
    return fail(`upstream answered HTTP ${status}${excerpt(answer)}`);
  return successResult(operation, answer, { setup, fail, status });
}

/** Sends the request and reads the answer. @throws on timeout, network failure, or a body over the bound. */
export async function send(
  operation: OperationSpec,
  args: Record<string, unknown>,
  context: { setup: CallSetup; signal: AbortSignal },
): Promise<Answer> {
  const { setup } = context;
  const request = prepareRequest(operation, args, setup.upstream);
  // One controller and a plain timer: AbortSignal.any/timeout on Node 20 can lose the timeout.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError()), setup.timeoutMs);
  const onCancel = () => controller.abort(context.signal.reason);
  context.signal.addEventListener('abort', onCancel, { once: true });
  if (context.signal.aborted) onCancel();
  try {
    const response = await setup.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual', // a redirect elsewhere would carry the credentials along
      signal: controller.signal,
    });
    const bytes = await readBounded(response, setup.maxResponseBytes);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { status: response.status, statusText: response.statusText, mediaType, bytes };
  } catch (error) {
    throw controller.signal.reason instanceof TimeoutError ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onCancel);
  }
}

/** The per-call timeout fired. */
class TimeoutError extends Error {
  override name = 'TimeoutError';
}

async function readBounded(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw new BoundError(`upstream answer of ${declared} bytes is over the ${max}-byte bound`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
    size += next.value.byteLength;
    if (size > max) {
      await reader?.cancel();
      throw new BoundError(`upstream answer is over the ${max}-byte bound`);
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) out.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return out;
}

class BoundError extends Error {}

/** What went wrong before an answer arrived, in words safe to show. */
export function failure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return `upstream did not answer within ${timeoutMs} ms (timeout)`;
  if (name === 'AbortError') return 'the call was cancelled';
  if (error instanceof BoundError) return error.message;
  if (error instanceof LocalError && error.code === 'INVALID_ARGUMENT')
    return `cannot build the request: ${error.message}`;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `upstream could not be reached: ${message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
}

async function successResult(
  operation: OperationSpec,
  answer: Answer,
  how: { setup: CallSetup; fail: (what: string) => ToolResult; status: string },
): Promise<ToolResult> {
  const { setup, fail, status } = how;
  const text = new TextDecoder().decode(answer.bytes);
  const empty = answer.bytes.byteLength === 0;
  if (!setup.output) {
    if (empty) return { content: [{ type: 'text', text: `HTTP ${status} (no content)` }] };
    return { content: [contentOf(answer, setup.redact(text))] };
  }
  if (empty || !isJson(answer.mediaType || 'application/json'))
    return fail(
      `upstream answered HTTP ${status} with ${empty ? 'no body' : answer.mediaType || 'an untyped body'}, not the JSON its response schema promises${excerpt(answer)}`,
    );
  let value: unknown;
  try {
    value = redactValue(JSON.parse(text), setup.redact);
  } catch {
    return fail(`upstream answered HTTP ${status} with a body that is not valid JSON${excerpt(answer)}`);
  }
  const checked = await setup.output.validate(value);
  if (!checked.ok)
    return fail(
      `upstream answered HTTP ${status} with JSON that does not match its response schema: ${checked.issues.slice(0, 5).join('; ')}`,
    );
  const structured = value as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** `value` with `redact` applied to every string in it, keys included. */
function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k)] = redactValue(v, redact);
  return out;
}

function contentOf(answer: Answer, text: string): ContentBlock {
  if (answer.mediaType.startsWith('image/'))
    return { type: 'image', mimeType: answer.mediaType, data: base64(answer.bytes) };
  return { type: 'text', text };
}

function excerpt(answer: Answer): string {
  if (answer.bytes.byteLength === 0) return '';
  const text = new TextDecoder().decode(answer.bytes.subarray(0, EXCERPT * 4)).slice(0, EXCERPT);
  return `: ${text}${answer.bytes.byteLength > text.length ? '…' : ''}`;
}

/** Standard Base64 of `bytes` (btoa works on byte strings; chunks keep the argument list short). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
