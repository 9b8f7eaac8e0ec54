/**
 * The gateway's cost per call: `echo` on mcpkit's bench server over stdio, called directly
 * and through `mcpkit proxy` (the gateway fronting that one server, stdio in front, stdio
 * behind), one call in flight, alternating runs. The difference of the per-call latencies
 * is the gateway's overhead in µs per call: one extra process hop (two pipe writes and
 * reads), the front's dispatch, and the host client's request to the backend.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Config } from '../harness/config.js';
import {
  INITIALIZE,
  INITIALIZED,
  echoCall,
  echoedText,
  modern,
  type Call,
  type Era,
} from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import { repoRoot, stopServer, type ServerProcess } from '../harness/servers.js';
import { StdioPeer } from '../harness/stdio-peer.js';

/** Figure keys (µs per call, one in flight), recorded under impl `mcpkit`. */
const gatewayKey = (era: Era, via: 'direct' | 'gateway'): string => `gateway/${era}/${via}`;

function spawnTarget(era: Era, via: 'direct' | 'gateway'): ServerProcess {
  const root = repoRoot();
  const backend = [join(root, 'dist', 'bench', 'servers', 'mcpkit.js'), 'stdio'];
  const args =
    via === 'direct'
      ? backend
      : [
          join(root, 'dist', 'src', 'cli', 'main.js'),
          'proxy',
          '--era',
          era,
          '--',
          process.execPath,
          ...backend,
        ];
  return spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
}

async function ready(peer: StdioPeer, era: Era): Promise<(call: Call) => Call> {
  if (era === 'modern') {
    // The gateway lists its tools once its backend is ready; wait until echo is there.
    for (;;) {
      const list = await peer.request(modern({ method: 'tools/list', params: {} }));
      if (JSON.stringify(list.result?.tools ?? []).includes('"echo"')) return modern;
    }
  }
  await peer.request(INITIALIZE);
  peer.send(INITIALIZED);
  return (call) => call;
}

/** Runs calls one at a time for `ms`; resolves with µs per call. */
async function loop(peer: StdioPeer, shape: (call: Call) => Call, ms: number): Promise<number> {
  const call = shape(echoCall('hello'));
  const end = performance.now() + ms;
  const t0 = performance.now();
  let calls = 0;
  while (performance.now() < end) {
    if (echoedText(await peer.request(call)) !== 'hello') throw new Error('echo answered something else');
    calls++;
  }
  return ((performance.now() - t0) * 1000) / calls;
}

async function measure(era: Era, via: 'direct' | 'gateway', config: Config): Promise<number> {
  const child = spawnTarget(era, via);
  try {
    const peer = new StdioPeer(child);
    const shape = await ready(peer, era);
    await loop(peer, shape, config.warmupMs);
    return await loop(peer, shape, config.durationMs);
  } finally {
    await stopServer(child);
  }
}

/** Measures both eras, direct and through the gateway, `config.runs` times each, alternating. */
export async function gateway(config: Config, results: Results): Promise<void> {
  for (const era of ['modern', 'legacy'] as const)
    for (let run = 0; run < config.runs; run++)
      for (const via of run % 2 === 0 ? (['direct', 'gateway'] as const) : (['gateway', 'direct'] as const))
        results.add(gatewayKey(era, via), 'mcpkit', run, await measure(era, via, config));
}

/** The report's table: µs per call direct and through the gateway, and the difference. */
export function gatewayTable(results: Results): string[] {
  const rows: string[] = [];
  for (const era of ['modern', 'legacy'] as const) {
    const direct = results.runs(gatewayKey(era, 'direct'), 'mcpkit');
    const through = results.runs(gatewayKey(era, 'gateway'), 'mcpkit');
    const overhead = [...through].flatMap(([run, us]) =>
      direct.has(run) ? [us - (direct.get(run) ?? 0)] : [],
    );
    const cell = (values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return s.length === 0
        ? '–'
        : `${s[Math.floor(s.length / 2)]?.toFixed(0)} (${s[0]?.toFixed(0)}–${s.at(-1)?.toFixed(0)})`;
    };
    if (direct.size === 0) continue;
    rows.push(
      `| stdio ${era} | ${cell([...direct.values()])} | ${cell([...through.values()])} | ${cell(overhead)} |`,
    );
  }
  if (rows.length === 0) return [];
  return [
    '| wire | direct µs/call | through the gateway µs/call | overhead µs/call |',
    '|---|---|---|---|',
    ...rows,
  ];
}
