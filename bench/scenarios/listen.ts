/**
 * `subscriptions/listen` over modern HTTP: RSS per idle listen stream, then the fan-out
 * rate — a tool calls `notifyToolsChanged()` (the SDK's `notify.toolsChanged()` for v2)
 * and every stream must receive `notifications/tools/list_changed`.
 * Source: 2026-07-28 basic/patterns/subscriptions.
 */
import type { Config } from '../harness/config.js';
import { openStream, type OpenStream } from '../harness/http-peer.js';
import { cpuMicros, rssBytes } from '../harness/proc.js';
import { modern, modernHeaders, type Call } from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import type { Impl } from '../harness/servers.js';
import { checked, connect, start, stop, type Running } from '../harness/targets.js';
import { echoOnce } from './throughput.js';
import { runLoad } from '../harness/load.js';

/** Figure keys of the listen section. */
export const LISTEN_RATE = 'listen/rate';
export const LISTEN_CPU = 'listen/cpu';
export const LISTEN_RSS = 'listen/rss';

/** Implementations whose listen is measured (v2 when its listen works; see notes). */
export const LISTEN_IMPLS: readonly Impl[] = ['mcpkit', 'v2'];

const LISTEN: Call = {
  method: 'subscriptions/listen',
  params: { notifications: { toolsListChanged: true } },
};
const TRIGGER: Call = { method: 'tools/call', params: { name: 'trigger_tools_changed', arguments: {} } };
const CHANGED = 'notifications/tools/list_changed';
const ACK = 'notifications/subscriptions/acknowledged';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `count` streams; resolves once each is acknowledged. */
async function openListeners(running: Running, count: number, onChange: () => void): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  for (let i = 0; i < count; i++) {
    let acked!: () => void;
    const ack = new Promise<void>((resolve) => (acked = resolve));
    const body = { jsonrpc: '2.0', id: `listen-${i}`, ...modern(LISTEN) };
    const stream = await openStream(running.url ?? '', body, modernHeaders(LISTEN), (m) => {
      if (m.method === ACK) acked();
      else if (m.method === CHANGED) onChange();
    });
    if (stream.status !== 200) throw new Error(`subscriptions/listen: HTTP ${stream.status}`);
    streams.push(stream);
    await Promise.race([ack, sleep(5000).then(() => Promise.reject(new Error('listen: no acknowledgment')))]);
  }
  return streams;
}

async function measure(impl: Impl, config: Config, results: Results): Promise<void> {
  const running = await start(impl, 'http', config);
  const client = await connect(running, 'modern', 4);
  const streams: OpenStream[] = [];
  try {
    await runLoad({ call: echoOnce(client), inFlight: 4, durationMs: config.warmupMs, pid: running.pid });
    await sleep(200);
    const rss0 = rssBytes(running.pid);
    let received = 0;
    streams.push(...(await openListeners(running, config.listeners, () => received++)));
    await sleep(300);
    const rss1 = rssBytes(running.pid);
    if (rss0 !== undefined && rss1 !== undefined)
      results.add(LISTEN_RSS, impl, 0, (rss1 - rss0) / streams.length);
    const expected = config.triggers * streams.length;
    const cpu0 = cpuMicros(running.pid);
    const t0 = performance.now();
    for (let i = 0; i < config.triggers; i++) checked(await client.call(TRIGGER));
    while (received < expected && performance.now() - t0 < 15_000) await sleep(2);
    const seconds = (performance.now() - t0) / 1000;
    const cpu1 = cpuMicros(running.pid);
    if (received < expected)
      results.notes.push(`${impl} listen: ${received} of ${expected} notifications arrived`);
    results.add(LISTEN_RATE, impl, 0, received / seconds);
    if (cpu0 !== undefined && cpu1 !== undefined && received > 0)
      results.add(LISTEN_CPU, impl, 0, (cpu1 - cpu0) / received);
  } finally {
    for (const s of streams) s.close();
    await client.close();
    await stop(running);
  }
}

/** Measures listen for each implementation; a failure is noted, not fatal. */
export async function listen(config: Config, results: Results): Promise<void> {
  for (const impl of LISTEN_IMPLS) {
    try {
      await measure(impl, config, results);
    } catch (error) {
      results.notes.push(
        `${impl} listen not measured: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
