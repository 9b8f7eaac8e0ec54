/**
 * `npm run bench:fleet`: what a fleet costs. Three mcpkit instances on one Redis (started
 * here, persistence off) against one instance in memory:
 * - listen fan-out: listen streams spread over the instances, list changes published on
 *   one instance; notifications delivered per second and p50/p99 delivery latency;
 * - tasks: create → complete throughput of a task that finishes at once, polled.
 * Instances, Redis client and load generator share this machine (and this process, except
 * Redis): compare the two columns, not the absolute figures with other machines.
 * Flags: --listeners N (default 30), --changes N (default 200), --seconds N (default 5).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createClient, streamableHttp, type Client, type TaskHandle } from '../src/client/index.js';
import type { EventBus } from '../src/core/index.js';
import type { TaskStore } from '../src/core/index.js';
import { serve, type Served } from '../src/integrations/node/index.js';
import type { Redis } from 'ioredis';
import { connectRedis, createRedisFleet, type RedisFleet } from '../src/integrations/redis/index.js';
import { createServer, type McpServer } from '../src/server/index.js';
import { startRedis, type TestRedis } from './harness/redis.js';

const { values } = parseArgs({
  options: {
    listeners: { type: 'string', default: '30' },
    changes: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '5' },
  },
});
const LISTENERS = Number(values.listeners);
const CHANGES = Number(values.changes);
const SECONDS = Number(values.seconds);

interface Instance {
  server: McpServer;
  served: Served;
}

interface Setup {
  instances: Instance[];
  close(): Promise<void>;
}

async function instance(backends: { eventBus?: EventBus; store?: TaskStore }): Promise<Instance> {
  const server = createServer({
    name: 'bench-fleet',
    version: '1',
    ...(backends.eventBus ? { eventBus: backends.eventBus } : {}),
    tasks: { pollIntervalMs: 10, ...(backends.store ? { store: backends.store } : {}) },
  });
  server.tool('noop', { task: 'optional' }, () => 'done');
  return { server, served: await serve(server, { port: 0 }) };
}

async function single(): Promise<Setup> {
  const one = await instance({});
  return { instances: [one], close: () => one.served.close() };
}

async function fleetOf(redis: TestRedis, count: number): Promise<Setup> {
  const fleets: RedisFleet[] = [];
  const instances: Instance[] = [];
  const prefix = `bench${Date.now()}:`;
  const connections: Redis[] = [];
  for (let i = 0; i < count; i++) {
    const connection = await connectRedis(redis.url);
    connections.push(connection);
    const fleet = await createRedisFleet(connection, { prefix });
    fleets.push(fleet);
    instances.push(await instance({ eventBus: fleet.eventBus, store: fleet.taskStore }));
  }
  return {
    instances,
    async close() {
      for (const i of instances) i.server.stopTasks();
      for (const i of instances) await i.served.close();
      for (const f of fleets) await f.close();
      for (const c of connections) c.disconnect(); // else ioredis reconnects forever once Redis stops
    },
  };
}

/** Requests sent per JSON-RPC method by the bench's clients (to count polls per task). */
const sent = new Map<string, number>();
const counting: typeof fetch = (input, init) => {
  const method = /"method":"([^"]+)"/.exec(String(init?.body ?? ''))?.[1] ?? '';
  sent.set(method, (sent.get(method) ?? 0) + 1);
  return fetch(input, init);
};

async function client(url: string): Promise<Client> {
  const c = createClient({ name: 'bench', version: '1', era: 'modern' });
  await c.connect(streamableHttp(url, { fetch: counting }));
  return c;
}

/** CPU milliseconds used so far by this process and by `pid` (redis-server), from /proc. */
function cpuMs(pid: number | undefined): number {
  const own = process.cpuUsage();
  let other = 0;
  if (pid !== undefined) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    other = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, 100 ticks/s
  }
  return (own.user + own.system) / 1000 + other;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Opens listeners round-robin over the instances; publishes changes on the first one, in a
 * burst (`paceMs` 0: the delivery rate) or one every `paceMs` (the delivery latency).
 */
async function fanOut(
  setup: Setup,
  paceMs: number,
): Promise<{ rate: number; p50: number; p99: number; lost: number }> {
  const clients: Client[] = [];
  const latencies: number[] = [];
  const published: number[] = [];
  const counts = new Array<number>(LISTENERS).fill(0);
  const subs = [];
  for (let i = 0; i < LISTENERS; i++) {
    const c = await client(setup.instances[i % setup.instances.length]!.served.url);
    clients.push(c);
    const sub = c.listen({ toolsListChanged: true });
    await sub.acknowledged;
    subs.push(sub);
    void (async () => {
      for await (const _ of sub) latencies.push(performance.now() - (published[counts[i]!++] ?? NaN));
    })().catch(() => undefined);
  }
  const t0 = performance.now();
  for (let k = 0; k < CHANGES; k++) {
    published.push(performance.now());
    setup.instances[0]!.server.notifyToolsChanged();
    await new Promise((resolve) => (paceMs > 0 ? setTimeout(resolve, paceMs) : setImmediate(resolve)));
  }
  const expected = CHANGES * LISTENERS;
  while (latencies.length < expected && performance.now() - t0 < 20_000)
    await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - t0) / 1000;
  for (const s of subs) s.close();
  for (const c of clients) await c.close();
  const sorted = latencies.filter(Number.isFinite).sort((a, b) => a - b);
  return {
    rate: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    lost: expected - latencies.length,
  };
}

/**
 * Eight workers create a task and wait for its result, round-robin over the instances.
 * Also: `tasks/get` sent per task (1 = no poll wait: done at the first look), and CPU
 * milliseconds per task of this process (clients and instances) plus redis-server.
 */
async function taskThroughput(
  setup: Setup,
  redisPid: number | undefined,
  seconds = SECONDS,
): Promise<{ rate: number; polls: number; cpu: number }> {
  const clients = await Promise.all(setup.instances.map((i) => client(i.served.url)));
  const gets = sent.get('tasks/get') ?? 0;
  const cpu0 = cpuMs(redisPid);
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async (w: number): Promise<void> => {
    for (let n = w; performance.now() < until; n++) {
      const c = clients[n % clients.length]!;
      const handle = (await c.callTool('noop', {}, { task: 'allow' })) as TaskHandle;
      await clients[(n + 1) % clients.length]!.resumeTask(handle.reference).result();
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  const rate = done / ((performance.now() - t0) / 1000);
  const cpu = (cpuMs(redisPid) - cpu0) / done;
  const polls = ((sent.get('tasks/get') ?? 0) - gets) / done;
  for (const c of clients) await c.close();
  return { rate, polls, cpu };
}

const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

async function main(): Promise<void> {
  const redis = await startRedis();
  try {
    const rows: string[][] = [];
    for (const [label, make, redisPid] of [
      ['1 instance, in memory', () => single(), undefined],
      ['3 instances, Redis', () => fleetOf(redis, 3), redis.pid()],
    ] as const) {
      console.error(`bench fleet: ${label}`);
      const setup = await make();
      try {
        const burst = await fanOut(setup, 0);
        const paced = await fanOut(setup, 5);
        await taskThroughput(setup, redisPid, 1); // warm-up: JIT and connections, not measured
        const tasks = await taskThroughput(setup, redisPid);
        const lost = String(burst.lost + paced.lost);
        rows.push([
          label,
          fmt(burst.rate),
          fmt(burst.p99, 1),
          fmt(paced.p50, 2),
          fmt(paced.p99, 2),
          lost,
          fmt(tasks.rate),
          fmt(tasks.polls, 2),
          fmt(tasks.cpu, 2),
        ]);
      } finally {
        await setup.close();
      }
    }
    console.log(
      `# mcpkit fleet bench\n\nNode ${process.version}; ${LISTENERS} listen streams, ${CHANGES} list changes; tasks: 8 workers for ${SECONDS} s after 1 s of warm-up, poll interval 10 ms.\n`,
    );
    console.log('Burst: all changes published back to back (delivery rate; p99 includes queueing).');
    console.log('Paced: one change every 5 ms (delivery latency from publish to a listener).\n');
    console.log(
      'Tasks: throughput; tasks/get per task (1.00 = done at the first poll, no poll wait); CPU ms per task',
    );
    console.log(
      '(this process: clients and instances; plus redis-server for the fleet). Everything shares one',
    );
    console.log(
      'process except redis-server, so on a loaded machine the fleet also gets a second process’s CPU share.\n',
    );
    console.log(
      '| setup | burst notifications/s | burst p99 ms | paced p50 ms | paced p99 ms | lost | tasks/s (create → complete) | tasks/get per task | CPU ms per task |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await redis.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
