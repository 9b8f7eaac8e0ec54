/**
 * A handler's explicit `input_required` answer (a shape 2025-11-25 does not have) on a legacy
 * session: each input request is asked on the session, and the handler runs again with the
 * answers in `ctx.inputResponses`, as it would on a modern client's retry.
 * Source: 2026-07-28 basic/patterns/mrtr; 2025-11-25 client/elicitation, client/sampling,
 * client/roots.
 */
import { WireError, type Params } from '../../core/index.js';
import { checkInputAnswer, checkInputRequests, type AskedMethod } from '../answers.js';
import { isInputRequired, type InputRequest, type InputRequiredAnswer } from '../mrtr.js';
import { askSession } from './input.js';
import { askThrough, bindingOf, schemaLimitsOf, type RequestScope } from '../scope.js';

/** Most times a handler may answer `input_required` to one legacy request. */
const MAX_ROUNDS = 8;

/**
 * Runs a handler on a legacy session until it answers with something other than
 * `input_required`: each round's input requests are asked on the session (concurrently)
 * and the handler runs again with every answer so far.
 * @throws WireError -32603 after {@link MAX_ROUNDS} rounds; whatever asking throws.
 */
export async function runWithLegacyInput(
  scope: RequestScope,
  run: () => Promise<Params> | Params,
): Promise<Params> {
  // Most handlers answer at once: nothing is allocated for the rounds until one asks.
  const first = await run();
  return isInputRequired(first) ? moreRounds(scope, run, first) : first;
}

async function moreRounds(
  scope: RequestScope,
  run: () => Promise<Params> | Params,
  first: InputRequiredAnswer,
): Promise<Params> {
  const known: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // An answer to the explicit request is given to a `ctx.*` call of the same key only when it
  // also fits that call's question; otherwise the session is asked.
  const ask = async (method: AskedMethod, params: Params, key?: string): Promise<Params> => {
    if (key === undefined || !Object.hasOwn(known, key)) return sessionAsk(scope, { method, params });
    const question = { method, params, limits: schemaLimitsOf(scope) };
    return checkInputAnswer(question, known[key], key).catch(() => sessionAsk(scope, { method, params }));
  };
  let result: Params | InputRequiredAnswer = first;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (round > 0) result = await run();
    if (!isInputRequired(result)) return result;
    checkInputRequests(scope.clientCapabilities, 'legacy', result.inputRequests);
    const entries = Object.entries(result.inputRequests);
    const answers = await Promise.all(entries.map(([, request]) => sessionAsk(scope, request)));
    entries.forEach(([key], i) => (known[key] = answers[i]));
    askThrough(scope, { known, ask });
  }
  throw WireError.of('InternalError', `the handler still needed input after ${MAX_ROUNDS} rounds`);
}

function sessionAsk(scope: RequestScope, request: InputRequest): Promise<Params> {
  const session = bindingOf(scope).session;
  if (!session) throw WireError.of('InternalError', 'no legacy session to ask the client on');
  return askSession(session, { ...request, limits: schemaLimitsOf(scope), signal: scope.signal });
}
