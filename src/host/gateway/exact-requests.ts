/**
 * The gateway's front side of the exact-numbers rule (see `../exact-numbers.ts` for the
 * backend side): a front client's request that carries an integer beyond ±(2^53 − 1) —
 * in a tool's or prompt's arguments, a completion's context, a modern retry's
 * `inputResponses`, anything in its params — is refused before it is read or relayed.
 * Source: RFC 8259 §6.
 */
import { WireError, type Middleware, type Params } from '../../core/index.js';
import { errorResult } from '../../server/index.js';
import { firstUnsafeInteger, unsafeIntegerMessage } from '../exact-numbers.js';

/**
 * The middleware: a `tools/call` whose arguments hold such a number gets a tool error
 * naming the argument (`isError: true`); any other request holding one, error -32602
 * naming the method and where in its params.
 */
export function exactRequests(): Middleware {
  return (next) => (message, ctx) => {
    if (ctx.direction !== 'incoming' || message.kind !== 'request') return next(message, ctx);
    const at = firstUnsafeInteger(message.params);
    if (at === undefined) return next(message, ctx);
    if (message.method === 'tools/call' && at.startsWith('/arguments/'))
      return Promise.resolve(
        errorResult(
          unsafeIntegerMessage('the arguments', at.slice('/arguments'.length)),
        ) as unknown as Params,
      );
    return Promise.reject(
      WireError.of('InvalidParams', unsafeIntegerMessage(`the ${message.method} request`, at)),
    );
  };
}
