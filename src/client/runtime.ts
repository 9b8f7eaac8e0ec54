/**
 * The client's internal face for the host and gateway (`src/host`), not exported from the
 * package: a request sent on behalf of another client, whose `input_required` or task
 * result goes back to that client as it is. Applications use `Client.request`.
 * Source: 2026-07-28 basic/patterns/mrtr; SEP-2663 (Tasks).
 */
import type { Params, RequestOptions, ClientCapabilities } from '../core/index.js';
import { liveConnection, type Client } from './client.js';
import type { ResultFor } from './request-types.js';

/** Options for relaying a request on behalf of another client (a proxy or gateway). */
export interface RelayOptions extends RequestOptions {
  /** Return an `input_required` result as it is instead of answering it (MRTR relayed to the caller's client). */
  relayInputRequired?: boolean;
  /** Modern: the capabilities to declare in this request's `_meta` instead of this client's own. */
  clientCapabilities?: ClientCapabilities;
  /** Return a task result (`resultType: "task"`) as it is (the caller's client declared Tasks). */
  acceptTask?: boolean;
}

/**
 * `client.request` with the relay options: sends `method` on the client's live connection
 * and returns its result, which may be `input_required` (with `relayInputRequired`) or a
 * task (with `acceptTask`).
 * @throws as `Client.request`.
 */
export function relayRequest<M extends string>(
  client: Client,
  request: { method: M; params?: Params | undefined },
  options: RelayOptions,
): Promise<ResultFor<M>> {
  return liveConnection(client).roundTrip(request.method, request.params, options) as Promise<ResultFor<M>>;
}
