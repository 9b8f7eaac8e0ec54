/**
 * The chaos run of a fleet: three instances of examples/fleet-server.ts on a
 * real, persistent redis-server, behind a health-checked round-robin balancer, under
 * continuous mixed load (both eras, MRTR and legacy elicitation, tasks, listen streams),
 * while a random instance is SIGKILLed and restarted every `killEveryMs` and Redis is
 * restarted once half-way. Everything is on loopback and stops by itself.
 */
import { Redis } from 'ioredis';
import { rssBytes } from './proc.js';
import { startFleet, type FleetInstance } from './fleet.js';
import { startRedis, type TestRedis } from './redis.js';
import {
  ChaosLedger,
  balancer,
  chaosClient,
  legacyElicitation,
  listener,
  modernCalls,
  modernElicitation,
  tasks,
  type Listener,
  type Tally,
  type Worker,
} from './chaos-load.js';

/** Knobs of a chaos run (all times in milliseconds except `seconds`). */
export interface ChaosOptions {
  /** How long the load runs. */
  seconds: number;
  /** A random instance is killed this often. Default 4000. */
  killEveryMs?: number;
  /** How long a killed instance stays down before its restart. Default 1000. */
  downMs?: number;
  /** An operation not settled within this is hung. Default 30 000. */
  boundMs?: number;
  /** Restart Redis once half-way (default true). */
  restartRedis?: boolean;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

/** Resident memory of one instance, sampled every second, in MiB. */
export interface MemoryTrace {
  name: string;
  samples: number[];
}

/** What a chaos run measured. */
export interface ChaosReport {
  seconds: number;
  kills: number;
  redisRestarts: number;
  tallies: Map<string, Tally>;
  clear: Map<string, number>;
  unclear: Map<string, number>;
  /** Results judged neither answered nor failed (misrouted, duplicated, lost), with their text. */
  odd: Map<string, number>;
  /** Per hung operation: its kind, then its client's last HTTP exchanges. */
  hungTraces: string[][];
  /** `mark` ids executed more than once (read back from Redis). */
  duplicatedExecutions: number;
  listeners: { era: string; recovered: boolean }[];
  memory: MemoryTrace[];
}

/** The failures that --check refuses, one line each (empty: the run is clean). */
export function verdict(report: ChaosReport): string[] {
  const bad: string[] = [];
  for (const [kind, t] of report.tallies) {
    for (const field of ['hung', 'duplicated', 'misrouted', 'lost', 'unclear'] as const)
      if (t[field] > 0) bad.push(`${kind}: ${t[field]} ${field}`);
  }
  if (report.duplicatedExecutions > 0) bad.push(`mark: ${report.duplicatedExecutions} executed twice`);
  const stuck = report.listeners.filter((l) => !l.recovered);
  if (stuck.length) bad.push(`listen: ${stuck.length} of ${report.listeners.length} streams did not recover`);
  return bad;
}

const NAMES = ['a', 'b', 'c'];

/** Runs the load and the faults for `options.seconds`, then checks what survived. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const redis = await startRedis({ persistent: true });
  const fleet = await startFleet(redis.url, NAMES, { leaseMs: 1500, pollMs: 50 }).catch(
    async (e: unknown) => {
      await redis.stop();
      throw e;
    },
  );
  const down = new Set<FleetInstance>();
  const live = (): string[] => fleet.filter((i) => !down.has(i)).map((i) => i.url);
  const via = balancer(live);
  const ledger = new ChaosLedger(options.boundMs ?? 30_000);
  const memory = NAMES.map((name) => ({ name, samples: [] as number[] }));
  const sampler = setInterval(() => sample(fleet, memory), 1000);
  const closers: (() => Promise<void>)[] = [];
  try {
    const workers = await startWorkers(via, live, closers);
    const listeners = await Promise.all(
      (['modern', 'modern', 'modern', 'modern', 'legacy', 'legacy'] as const).map((era) =>
        listener(era, via),
      ),
    );
    for (const l of listeners) closers.push(() => l.close());
    const control = await chaosClient('modern', via);
    closers.push(() => control.close());
    const until = performance.now() + options.seconds * 1000;
    log(`chaos: load for ${options.seconds} s on ${fleet.map((i) => i.url).join(', ')}`);
    const faults = runFaults({ fleet, down, redis, until, options, log });
    const changes = publishChanges(control, until);
    await Promise.all([...workers.map((w) => w(ledger, until)), faults.done, changes]);
    const recovered = await checkListeners(control, listeners);
    return {
      seconds: options.seconds,
      kills: faults.kills(),
      redisRestarts: options.restartRedis === false ? 0 : 1,
      tallies: ledger.tallies,
      clear: ledger.clear,
      unclear: ledger.unclear,
      odd: ledger.odd,
      hungTraces: ledger.hungTraces,
      duplicatedExecutions: await duplicatedMarks(redis.url, ledger.marks),
      listeners: listeners.map((l, i) => ({ era: l.era, recovered: recovered[i]! })),
      memory,
    };
  } finally {
    clearInterval(sampler);
    for (const close of closers) await close().catch(() => undefined);
    for (const i of fleet) await i.kill('SIGKILL');
    await redis.stop();
  }
}

async function startWorkers(
  via: typeof fetch,
  live: () => readonly string[],
  closers: (() => Promise<void>)[],
): Promise<Worker[]> {
  const modern = await Promise.all([0, 1, 2].map(() => chaosClient('modern', via)));
  const [creator, poller] = await Promise.all([chaosClient('modern', via), chaosClient('modern', via)]);
  const rest = await Promise.all([
    modernElicitation(via, 0),
    modernElicitation(via, 1),
    legacyElicitation(live),
    legacyElicitation(live),
  ]);
  for (const c of [...modern, creator, poller]) closers.push(() => c.close());
  return [...modern.map(modernCalls), tasks(creator, poller), tasks(poller, creator), ...rest];
}

interface FaultPlan {
  fleet: FleetInstance[];
  down: Set<FleetInstance>;
  redis: TestRedis;
  until: number;
  options: ChaosOptions;
  log: (line: string) => void;
}

/** Kills a random instance every `killEveryMs` (SIGKILL, restart after `downMs`); restarts Redis once. */
function runFaults(plan: FaultPlan): { done: Promise<void>; kills: () => number } {
  let kills = 0;
  const every = plan.options.killEveryMs ?? 4000;
  const downMs = plan.options.downMs ?? 1000;
  const redisAt = performance.now() + (plan.until - performance.now()) / 2;
  let redisDone = plan.options.restartRedis === false;
  const done = (async () => {
    while (performance.now() + every < plan.until) {
      await sleep(every - downMs);
      if (!redisDone && performance.now() >= redisAt) {
        redisDone = true;
        plan.log('chaos: restarting redis');
        await plan.redis.restart();
        plan.log('chaos: redis is back');
      }
      const victim = plan.fleet[Math.floor(Math.random() * plan.fleet.length)]!;
      plan.down.add(victim);
      plan.log(`chaos: SIGKILL ${victim.name} ${victim.url} (pid ${victim.pid})`);
      kills++;
      await victim.kill('SIGKILL');
      await sleep(downMs);
      await victim.restart();
      plan.down.delete(victim);
      plan.log(`chaos: ${victim.name} restarted`);
    }
    if (!redisDone) await plan.redis.restart();
  })();
  return { done, kills: () => kills };
}

/** A list change every 500 ms through the balancer, so listen streams have something to hear. */
async function publishChanges(
  control: Awaited<ReturnType<typeof chaosClient>>,
  until: number,
): Promise<void> {
  while (performance.now() < until) {
    await control.callTool('add_tool', {}).catch(() => undefined); // faults are the point here
    await sleep(500);
  }
}

/** After the faults: one more list change; a listener recovered if it hears it within 15 s. */
async function checkListeners(
  control: Awaited<ReturnType<typeof chaosClient>>,
  listeners: Listener[],
): Promise<boolean[]> {
  const mark = performance.now();
  const deadline = mark + 15_000;
  while (performance.now() < deadline) {
    await control.callTool('add_tool', {}).catch(() => undefined);
    if (listeners.every((l) => l.lastSeen > mark)) break;
    await sleep(500);
  }
  return listeners.map((l) => l.lastSeen > mark);
}

/** How many `mark` ids were executed by more than one handler run (read back from Redis). */
async function duplicatedMarks(url: string, ids: readonly string[]): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    let duplicated = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const pipeline = redis.pipeline();
      for (const id of ids.slice(i, i + 500)) pipeline.scard(`mark:${id}`);
      const counts = (await pipeline.exec()) ?? [];
      duplicated += counts.filter(([, n]) => Number(n) > 1).length;
    }
    return duplicated;
  } finally {
    redis.disconnect();
  }
}

function sample(fleet: readonly FleetInstance[], memory: MemoryTrace[]): void {
  fleet.forEach((instance, i) => {
    const rss = rssBytes(instance.pid);
    if (rss !== undefined) memory[i]!.samples.push(rss / 2 ** 20);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
