/**
 * A gateway's modern front: a modern client's request passed to a modern server as it is,
 * so an `input_required` result goes back to that client unanswered.
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import type { Client, ResultOf } from '../../client/index.js';
import { relayRequest } from '../../client/runtime.js';
import type { InputRequiredMethod, Params } from '../../core/index.js';
import type { HostCallOptions, RelayFields } from '../options.js';

/** True when this call is relayed: the host was given relay fields and the server is modern. */
export function relayed(client: Client, options: Omit<HostCallOptions, 'onInput'>): boolean {
  return options.relay !== undefined && client.era === 'modern';
}

/** Sends a modern client's request on as it is; the result may be `input_required` or a task. */
export function relay<M extends InputRequiredMethod>(
  client: Client,
  request: { method: M; params: Params },
  options: Omit<HostCallOptions, 'onInput'>,
): Promise<ResultOf<M>> {
  const { method, params } = request;
  const { relay: fields, ...sent } = options;
  const { clientCapabilities, inputResponses, requestState } = fields as RelayFields;
  const retry = {
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(requestState === undefined ? {} : { requestState }),
  };
  return relayRequest(
    client,
    { method, params: { ...params, ...retry } },
    // A task comes back as it is too: only a client that declared the Tasks extension gets one.
    { ...sent, relayInputRequired: true, acceptTask: true, clientCapabilities },
  ) as Promise<ResultOf<M>>;
}
