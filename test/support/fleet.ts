/**
 * A fleet for tests: the instances come from bench/harness/fleet.ts (examples/fleet-server.ts
 * as child processes on one test Redis); here, the balancers that spread requests over them.
 */
export { startFleet, type FleetInstance } from '../../bench/harness/fleet.js';

/** A fetch that sends each request to the next of `urls` in turn (a round-robin balancer). */
export function roundRobin(urls: readonly string[]): { fetch: typeof fetch; sent: string[] } {
  let next = 0;
  const sent: string[] = [];
  const balanced: typeof fetch = (_input, init) => {
    const url = urls[next++ % urls.length]!;
    sent.push(url);
    return fetch(url, init);
  };
  return { fetch: balanced, sent };
}

/** One request a {@link sessionRouter} passed on: HTTP method, JSON-RPC method or id, instance. */
export interface Routed {
  http: string;
  /** The JSON-RPC method of a request or notification, `response` for an answer, '' for GET/DELETE. */
  rpc: string;
  url: string;
}

/**
 * A balancer for legacy sessions with no stickiness: each POST and DELETE goes to the next
 * of `urls()` (the live instances) in turn; a GET goes to `getTarget()` (so a test knows
 * where the GET stream is).
 */
export function sessionRouter(
  urls: () => readonly string[],
  getTarget: () => string,
): { fetch: typeof fetch; routed: Routed[] } {
  let next = 0;
  const routed: Routed[] = [];
  const balanced: typeof fetch = (_input, init) => {
    const http = init?.method ?? 'GET';
    const live = urls();
    const url = http === 'GET' ? getTarget() : live[next++ % live.length]!;
    routed.push({ http, rpc: rpcOf(init?.body), url });
    return fetch(url, init);
  };
  return { fetch: balanced, routed };
}

function rpcOf(body: unknown): string {
  if (typeof body !== 'string') return '';
  try {
    const value = JSON.parse(body) as { method?: unknown };
    return typeof value.method === 'string' ? value.method : 'response';
  } catch {
    return '';
  }
}
