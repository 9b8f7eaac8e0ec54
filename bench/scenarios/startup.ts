/**
 * Startup time (spawn → first successful `tools/list` reply over stdio) and idle RSS
 * right after it. Modern servers answer a modern `tools/list` at once; v1 speaks only the
 * legacy era, so its `initialize` is pipelined in front of the `tools/list`.
 */
import type { Config } from '../harness/config.js';
import { rssBytes } from '../harness/proc.js';
import { INITIALIZE, INITIALIZED, LIST_TOOLS, modern } from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import { implsFor, spawnServer, stopServer, type Impl } from '../harness/servers.js';
import { StdioPeer } from '../harness/stdio-peer.js';
import { checked } from '../harness/targets.js';
import { rotate } from './throughput.js';

/** Figure keys of the startup section. */
export const STARTUP_MS = 'startup/ms';
export const IDLE_RSS = 'startup/rss';

/** How long after the first reply idle RSS is read, in milliseconds. */
const SETTLE_MS = 200;

async function startOnce(impl: Impl, config: Config): Promise<{ ms: number; rss: number | undefined }> {
  const t0 = performance.now();
  const child = spawnServer(impl, 'stdio', config);
  const peer = new StdioPeer(child);
  try {
    if (impl === 'v1') {
      void peer.request(INITIALIZE);
      peer.send(INITIALIZED);
      checked(await peer.request(LIST_TOOLS));
    } else {
      checked(await peer.request(modern(LIST_TOOLS)));
    }
    const ms = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { ms, rss: child.pid === undefined ? undefined : rssBytes(child.pid) };
  } finally {
    await stopServer(child);
  }
}

/** Spawns each implementation `startupTries` times, alternating; records time and RSS. */
export async function startup(config: Config, results: Results): Promise<void> {
  const impls: Impl[] = ['bare', ...implsFor('legacy').filter((i) => i !== 'bare')];
  for (let run = 0; run < config.startupTries; run++) {
    for (const impl of rotate(impls, run)) {
      const { ms, rss } = await startOnce(impl, config);
      results.add(STARTUP_MS, impl, run, ms);
      results.add(IDLE_RSS, impl, run, rss);
    }
  }
}
