/**
 * How a gateway request reaches the host: the call runs on the backend with the front
 * request's progress, logging and cancellation, and input requests go back to the front
 * client — directly on a legacy session (server-initiated requests), through parked calls
 * for a modern client (`input_required`).
 * Source: 2026-07-28 basic/patterns (progress, cancellation, mrtr), server/utilities/logging.
 */
import { WireError, LocalError, type LoggingLevel, type Params } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import type { HostCallOptions } from '../host.js';
import type { InputRequestEvent } from '../inputs.js';
import { askClient, type ParkedCalls } from './parked.js';
import type { RelayStates } from './relay.js';

/**
 * Passes a backend's `notifications/message` that belongs to the call (the host proves it,
 * see `HostCallOptions.onLog`) to the front request now driving that call.
 */
function logTo(server: string, current: () => RequestContext | undefined): (params: Params) => void {
  return (params) => {
    const ctx = current();
    if (!ctx || typeof params.level !== 'string') return;
    const logger = typeof params.logger === 'string' ? `${server}/${params.logger}` : server;
    ctx.log(params.level as LoggingLevel, params.data, logger);
  };
}

/** What forwarding needs from its gateway. */
export interface ForwardSetup {
  parked: ParkedCalls;
  callTimeoutMs: number;
  relays: RelayStates;
  /** The era of a backend server, when it is ready. */
  eraOf(server: string): string | undefined;
}

/**
 * Runs `call` on `server` for the front request `ctx`. `signature` identifies the request
 * (method, name or URI, arguments) so a retry cannot resume another call's park.
 */
export async function forward<T>(
  setup: ForwardSetup,
  request: { ctx: RequestContext; server: string; signature: string },
  call: (options: HostCallOptions) => Promise<T>,
): Promise<T> {
  const { ctx, server } = request;
  const options = (
    signal: AbortSignal,
    current: () => RequestContext | undefined,
    onInput: NonNullable<HostCallOptions['onInput']>,
  ): HostCallOptions => ({
    signal,
    timeoutMs: setup.callTimeoutMs,
    timeoutOption: 'callTimeoutMs',
    onprogress: (u: { progress: number; total?: number; message?: string }) =>
      current()?.progress(u.progress, progressOf(u)),
    onInput,
    onLog: logTo(server, current),
  });
  const direct = (r: InputRequestEvent) => askClient(ctx, { request: r });
  if (ctx.era === 'modern' && setup.eraOf(server) === 'modern') {
    const relay = setup.relays.fieldsFor(ctx, request.signature);
    const result = await call({ ...options(ctx.signal, () => ctx, direct), relay });
    return (await setup.relays.answer(ctx, request.signature, result as Params)) as T;
  }
  if (ctx.era === 'legacy') return call(options(ctx.signal, () => ctx, direct));
  return (await setup.parked.run(ctx, request.signature, ({ signal, onInput, context }) =>
    call(options(signal, context, onInput)),
  )) as T;
}

function progressOf(u: { total?: number; message?: string }): { total?: number; message?: string } {
  return {
    ...(u.total === undefined ? {} : { total: u.total }),
    ...(u.message === undefined ? {} : { message: u.message }),
  };
}

/**
 * A failure of a forwarded call as the front client should see it: a backend's wire
 * error keeps its code; a local failure (timeout, closed connection, unknown name)
 * becomes -32603 naming the server.
 */
export function frontError(server: string, error: unknown): WireError {
  if (error instanceof WireError) return error;
  const detail =
    error instanceof LocalError
      ? `${error.code}: ${error.message}`
      : String((error as Error)?.message ?? error);
  return WireError.of('InternalError', `server '${server}': ${detail}`);
}
