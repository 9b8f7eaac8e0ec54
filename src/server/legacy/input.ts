/**
 * Input requests on a legacy session: a handler's `ctx.elicit`/`sample`/`listRoots` becomes
 * a server-initiated request, projected for the legacy wire, its answer checked as on the
 * modern wire.
 * Source: 2025-11-25 client/elicitation, client/sampling, client/roots.
 */
import type { Params } from '../../core/index.js';
import type { SchemaLimits } from '../../validation/index.js';
import { checkInputAnswer, type AskedMethod } from '../answers.js';
import { legacyElicitParams } from './projection.js';
import type { LegacySession } from './session.js';

/** One question to send on a legacy session. */
export interface SessionQuestion {
  method: AskedMethod;
  params: Params;
  limits: SchemaLimits | undefined;
  signal: AbortSignal;
}

/**
 * Sends a server-initiated request on `session` and resolves with the client's checked answer.
 * @throws WireError -32602 for an invalid answer; the client's error as it came.
 */
export async function askSession(session: LegacySession, question: SessionQuestion): Promise<Params> {
  const { method, limits, signal } = question;
  const params = method === 'elicitation/create' ? legacyElicitParams(question.params) : question.params;
  const answer = await session.link.request(method, params, { signal });
  return checkInputAnswer({ method, params, limits }, answer, `${method} answer`);
}
