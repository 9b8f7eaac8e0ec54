/**
 * RSS growth of an HTTP server after many legacy sessions are opened (`initialize` plus
 * `notifications/initialized`) and left idle: the per-session memory a stateful
 * deployment pays. One fresh server per implementation; the baseline is read after a
 * few warm-up sessions so that code loading is not counted.
 */
import type { Config } from '../harness/config.js';
import { HttpPeer } from '../harness/http-peer.js';
import { rssBytes } from '../harness/proc.js';
import type { Results } from '../harness/results.js';
import { implsFor, type Impl } from '../harness/servers.js';
import { legacySession, start, stop } from '../harness/targets.js';

/** Figure keys of the sessions section. */
export const SESSION_GROWTH = 'sessions/growth';
export const SESSION_EACH = 'sessions/each';

const WARM_SESSIONS = 20;
const CONCURRENCY = 16;

async function openSessions(peer: HttpPeer, count: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < count) await legacySession(peer);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function measure(impl: Impl, config: Config): Promise<{ growth: number | undefined }> {
  const running = await start(impl, 'http', config);
  const peer = new HttpPeer(running.url ?? '', CONCURRENCY);
  try {
    await openSessions(peer, WARM_SESSIONS);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = rssBytes(running.pid);
    await openSessions(peer, config.sessions);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = rssBytes(running.pid);
    return { growth: before === undefined || after === undefined ? undefined : after - before };
  } finally {
    peer.close();
    await stop(running);
  }
}

/** Measures session memory for each implementation serving legacy HTTP. */
export async function sessions(config: Config, results: Results): Promise<void> {
  for (const impl of implsFor('legacy')) {
    const { growth } = await measure(impl, config);
    results.add(SESSION_GROWTH, impl, 0, growth);
    results.add(SESSION_EACH, impl, 0, growth === undefined ? undefined : growth / config.sessions);
  }
}
