/**
 * The client side of multi round-trip requests: answer every `inputRequests` entry with
 * the host's handlers (concurrently); the caller then retries the original request, as a
 * new request with a new id, carrying `inputResponses` and the `requestState` echoed byte
 * for byte.
 * Nothing of one call's state is kept beyond its loop, so it never reaches another request.
 * Source: 2026-07-28 basic/patterns/mrtr "Client Requirements (Basic Workflow)".
 */
import { LocalError, type Params } from '../core/index.js';
import { INPUT_METHODS, isObject, ownEntry, setOwn } from '../core/runtime.js';
import { answerInput, HANDLER_FOR, undeclaredCapability, type InputAnswering } from './server-requests.js';

/** What one call's input rounds need. */
export interface InputLoop {
  answering: InputAnswering;
  /** Most `input_required` results answered before giving up. */
  maxRounds: number;
  /** Most `inputRequests` in one `input_required` result. */
  maxRequests: number;
  /** The call's signal, if any: aborts the handlers and the loop. */
  signal: AbortSignal | undefined;
  /** Aborted when the connection closes. */
  closed: AbortSignal;
}

/** One `input_required` answer of a call: which call, and how many it has had so far. */
export interface InputRound {
  method: string;
  /** The params the call was first sent with. */
  params: Params | undefined;
  /** 1 for the first `input_required` of the call. */
  round: number;
}

/**
 * The params to send the call again with after its `input_required` result `result`:
 * the inputs answered with the handlers, the `requestState` echoed (the caller sends the
 * retry as a new request, so with a new id).
 * @throws LocalError `INVALID_RESULT` when `method` may not get `input_required`, the
 *   result is malformed, no handler answers a requested input, or `maxRounds` is passed;
 *   `ABORTED`/`CONNECTION_CLOSED` when the call is aborted or the connection closes while
 *   handlers run; whatever a handler throws.
 */
export function retryAfterInput(call: InputRound, result: Params, loop: InputLoop): Promise<Params> {
  const { method, round } = call;
  if (!INPUT_METHODS.has(method)) {
    throw invalid(
      method,
      'the server answered input_required, which only tools/call, resources/read and prompts/get may get',
    );
  }
  if (round > loop.maxRounds) {
    throw invalid(method, `still input_required after ${loop.maxRounds} rounds (maxInputRounds)`);
  }
  return retryParams(call, result, loop);
}

/** The original params (without any earlier MRTR fields) plus this round's answers and state. */
async function retryParams(call: InputRound, result: Params, loop: InputLoop): Promise<Params> {
  const { method, params: original } = call;
  const { inputResponses: _responses, requestState: _state, ...retry } = original ?? {};
  const { requests, state } = readInputRequired(method, result, loop.maxRequests);
  if (requests !== undefined) retry.inputResponses = await answerAll(method, requests, loop);
  if (state !== undefined) retry.requestState = state;
  return retry;
}

interface InputRequiredParts {
  requests: Record<string, { method: string; params: Params }> | undefined;
  state: string | undefined;
}

function readInputRequired(method: string, result: Params, maxRequests: number): InputRequiredParts {
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalid(method, 'requestState of input_required must be a string');
  }
  if (inputRequests === undefined) return { requests: undefined, state: requestState };
  if (!isObject(inputRequests)) throw invalid(method, 'inputRequests must be an object');
  if (Object.keys(inputRequests).length > maxRequests) {
    const why = `${method}: more than ${maxRequests} inputRequests in one input_required (limits.maxInputRequests)`;
    throw new LocalError('LIMIT_EXCEEDED', why);
  }
  const requests: InputRequiredParts['requests'] = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    if (!isObject(request) || typeof request.method !== 'string' || !isOptionalObject(request.params)) {
      throw invalid(method, `inputRequests.${key} is not a request object`);
    }
    setOwn(requests, key, { method: request.method, params: request.params ?? {} });
  }
  return { requests, state: requestState };
}

/**
 * Answers the `inputRequests` of a task (Tasks extension) with the same handlers as MRTR.
 * Resolves undefined when there are none. @throws as {@link retryAfterInput}.
 */
export async function answerInputRequests(
  label: string,
  inputRequests: unknown,
  loop: Pick<InputLoop, 'answering' | 'signal' | 'closed' | 'maxRequests'>,
): Promise<Params | undefined> {
  const { requests } = readInputRequired(label, { inputRequests }, loop.maxRequests);
  if (!requests || Object.keys(requests).length === 0) return undefined;
  return answerAll(label, requests, loop);
}

/** Runs every input request's handler at once; all handlers must exist before any runs. */
async function answerAll(
  method: string,
  requests: NonNullable<InputRequiredParts['requests']>,
  loop: Pick<InputLoop, 'answering' | 'signal' | 'closed'>,
): Promise<Params> {
  const entries = Object.entries(requests);
  for (const [key, request] of entries) {
    requireHandler(method, [key, request.method], loop.answering);
    const missing = undeclaredCapability(loop.answering, request);
    if (missing) {
      const needs = JSON.stringify(missing);
      throw invalid(method, `inputRequests.${key} needs ${needs}, which this client did not declare`);
    }
  }
  const signal = loop.signal ? AbortSignal.any([loop.signal, loop.closed]) : loop.closed;
  const answered = Promise.all(
    entries.map(async ([key, request]) => {
      const answer = await answerInput(loop.answering, request, { signal });
      return [key, answer] as const;
    }),
  );
  return Object.fromEntries(await untilAborted(answered, loop));
}

/** `input` is the key of the input request and the method it asks for. */
function requireHandler(
  method: string,
  input: [key: string, method: string],
  answering: InputAnswering,
): void {
  const [key, inputMethod] = input;
  const handler = ownEntry(HANDLER_FOR, inputMethod);
  if (handler === undefined) {
    throw invalid(
      method,
      `inputRequests.${key} asks for ${inputMethod}, which is not an input request method`,
    );
  }
  if (answering.handlers[handler] === undefined) {
    throw invalid(method, `inputRequests.${key} asks for ${inputMethod}, but no handlers.${handler} is set`);
  }
}

/** Settles with `work`, or rejects as soon as the call is aborted or the connection closes. */
function untilAborted<T>(work: Promise<T>, loop: Pick<InputLoop, 'signal' | 'closed'>): Promise<T> {
  const signals = loop.signal ? [loop.closed, loop.signal] : [loop.closed];
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => {
      const closed = loop.closed.aborted;
      const error = closed
        ? new LocalError('CONNECTION_CLOSED', 'Connection closed while answering input requests')
        : new LocalError('ABORTED', 'Request aborted', { cause: loop.signal?.reason });
      reject(error);
    };
    if (signals.some((s) => s.aborted)) return stop();
    for (const s of signals) s.addEventListener('abort', stop, { once: true });
    const done = (): void => {
      for (const s of signals) s.removeEventListener('abort', stop);
    };
    work
      .then(resolve, reject)
      .finally(done)
      .catch(() => undefined);
  });
}

function invalid(method: string, message: string): LocalError {
  return new LocalError('INVALID_RESULT', `${method}: ${message}`);
}

function isOptionalObject(value: unknown): value is Params | undefined {
  return value === undefined || isObject(value);
}
