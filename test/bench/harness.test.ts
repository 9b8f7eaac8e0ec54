/**
 * The bench harness's servers must keep answering correctly, or the bench would time
 * garbage: each implementation is started in each mode it serves and drives a handful
 * of calls through the same raw JSON-RPC client the load generator uses. No timing here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/harness/load.js';
import { echoCall, echoedText, LIST_TOOLS } from '../../bench/harness/protocol.js';
import { implsFor } from '../../bench/harness/servers.js';
import { checked, connect, modeName, start, stop, type Running } from '../../bench/harness/targets.js';
import { echoOnce, MODES } from '../../bench/scenarios/throughput.js';
import { parseArgs } from '../../bench/harness/config.js';
import { Results } from '../../bench/harness/results.js';
import { LISTEN_IMPLS, LISTEN_RATE, listen } from '../../bench/scenarios/listen.js';
import { firstResult, firstResultTable } from '../../bench/scenarios/first-result.js';

const CASES = MODES.flatMap((mode) =>
  implsFor(mode.era).map((impl) => ({ mode, impl, name: modeName(mode) })),
);

describe.each(CASES)('bench server $impl over $name', ({ mode, impl }) => {
  let running: Running | undefined;
  afterEach(async () => {
    if (running) await stop(running);
  });

  it('lists echo and echoes text back, pipelined, through the load runner', async () => {
    running = await start(impl, mode.wire);
    const client = await connect(running, mode.era, 4);
    const tools = checked(await client.call(LIST_TOOLS)).result?.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toContain('echo');
    const texts = ['a', 'héllo ✓', 'x'.repeat(100_000)];
    const replies = await Promise.all(texts.map((t) => client.call(echoCall(t))));
    expect(replies.map(echoedText)).toEqual(texts);
    const sample = await runLoad({ call: echoOnce(client), inFlight: 4, durationMs: 50, pid: running.pid });
    expect(sample.calls).toBeGreaterThan(0);
    await client.close();
  });

  it('rejects an echo whose text is not a string', async () => {
    running = await start(impl, mode.wire);
    const client = await connect(running, mode.era, 1);
    const reply = await client.call({
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 42 } },
    });
    // A validation failure is either a JSON-RPC error or a tool result flagged isError.
    expect(reply.error !== undefined || reply.result?.isError === true).toBe(true);
    await client.close();
  });
});

describe('bench listen fan-out', () => {
  it('delivers every list change to every listen stream of each server', async () => {
    const config = { ...parseArgs(['--quick']), listeners: 3, triggers: 2, warmupMs: 20 };
    const results = new Results();
    await listen(config, results);
    expect(results.notes).toEqual([]);
    for (const impl of LISTEN_IMPLS) expect(results.spread(LISTEN_RATE, impl)?.median).toBeGreaterThan(0);
  });
});

describe('bench first result', () => {
  it('spawns each of the repository’s first-result servers in both eras and gets the echo back', async () => {
    const results = new Results();
    await firstResult(parseArgs(['--quick']), results, { rounds: 1, settleMs: 0, useReferee: false });
    const lines = firstResultTable(results);
    const figures = lines.slice(2, lines.indexOf('')); // the first table: one row per server and era
    const servers = ['bare echo', 'bare echo + `import zod`', 'mcpkit, JSON Schema tool', 'mcpkit, zod tool'];
    expect(figures.map((row) => row.split(' | ').slice(0, 2).join(' | '))).toEqual(
      ['legacy', 'modern'].flatMap((era) => servers.map((server) => `| ${era} | ${server}`)),
    );
    expect(results.notes.join('\n')).toContain('no referee found');
  });
});
