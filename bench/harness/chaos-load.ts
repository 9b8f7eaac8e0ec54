/**
 * The load of the chaos run (bench/chaos.ts): workers that keep calling a fleet through a
 * balancer until a deadline, each outcome classified. An operation that does not settle
 * within the bound is _hung_; an error is _clear_ when it is a WireError or LocalError (a
 * code and a message a user can act on), _unclear_ otherwise.
 */
import { randomUUID } from 'node:crypto';
import {
  createClient,
  streamableHttp,
  TaskHandle,
  type Client,
  type ClientOptions,
} from '../../src/client/index.js';
import { LocalError, WireError, type JsonRpcNotification } from '../../src/core/index.js';

/** What happened to the operations of one kind. */
export interface Tally {
  sent: number;
  answered: number;
  /** Failed with a clear error. */
  failed: number;
  /** Failed with an error that is not a WireError or LocalError. */
  unclear: number;
  /** No answer within the bound. */
  hung: number;
  /** Executed or asked more than once for one call. */
  duplicated: number;
  /** Answered with what belongs to another call. */
  misrouted: number;
  /** Tasks only: the task vanished (tasks/get says it does not exist). */
  lost: number;
}

/** How a value becomes an outcome; with `trace`, a hung operation reports its client's exchanges. */
type Check<V> = ((value: V) => keyof Tally) | { verdict: (value: V) => keyof Tally; trace: Trace };

/** The shared state of one run: tallies, error messages, and the balancer's live set. */
export class ChaosLedger {
  readonly tallies = new Map<string, Tally>();
  /** Clear error messages (`code: message`, first 100 chars) → count. */
  readonly clear = new Map<string, number>();
  /** Unclear error messages → count. */
  readonly unclear = new Map<string, number>();
  /** Results judged neither answered nor a failure (`kind outcome: text`, 100 chars) → count. */
  readonly odd = new Map<string, number>();
  /** Ids sent to the `mark` tool (each must execute at most once). */
  readonly marks: string[] = [];
  /** For each hung operation: its kind and the HTTP exchanges of its client just before. */
  readonly hungTraces: string[][] = [];

  constructor(readonly boundMs: number) {}

  tally(kind: string): Tally {
    let t = this.tallies.get(kind);
    if (!t) {
      t = { sent: 0, answered: 0, failed: 0, unclear: 0, hung: 0, duplicated: 0, misrouted: 0, lost: 0 };
      this.tallies.set(kind, t);
    }
    return t;
  }

  /** Records an error of `kind`; returns whether it was clear. */
  failure(kind: string, error: unknown): boolean {
    const clear = error instanceof WireError || error instanceof LocalError;
    const key = clear ? `${String(error.code)}: ${error.message.slice(0, 100)}` : String(error).slice(0, 100);
    const into = clear ? this.clear : this.unclear;
    into.set(key, (into.get(key) ?? 0) + 1);
    this.tally(kind)[clear ? 'failed' : 'unclear']++;
    return clear;
  }

  /** Runs `op` as one operation of `kind`: `check` turns its value into an outcome. */
  async run<V>(kind: string, op: () => Promise<V>, check: Check<V>): Promise<void> {
    const verdict = typeof check === 'function' ? check : check.verdict;
    const trace = typeof check === 'function' ? undefined : check.trace;
    const t = this.tally(kind);
    t.sent++;
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), this.boundMs)));
    try {
      const value = await Promise.race([op(), hung]);
      if (value === 'hung') {
        t.hung++;
        this.hungTraces.push([kind, ...(trace?.lines ?? [])]);
      } else {
        const outcome = verdict(value);
        t[outcome]++;
        if (outcome !== 'answered') {
          const key = `${kind} ${outcome}: ${JSON.stringify(value).slice(0, 100)}`;
          this.odd.set(key, (this.odd.get(key) ?? 0) + 1);
        }
      }
    } catch (error) {
      this.failure(kind, error);
      await new Promise((resolve) => setTimeout(resolve, 100)); // a client backs off, not spins
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The last HTTP exchanges of one client (for the report of a hung operation). */
export class Trace {
  readonly lines: string[] = [];
  /** Milliseconds since the process started (the clock of the run's log lines), as text. */
  now(): string {
    return performance.now().toFixed(0);
  }

  record(line: string): void {
    this.lines.push(line);
    if (this.lines.length > 40) this.lines.shift();
  }
}

/** A fetch that sends each request to the next live instance in turn (a health-checked balancer). */
export function balancer(live: () => readonly string[], trace?: Trace): typeof fetch {
  let next = 0;
  return async (_input, init) => {
    const urls = live();
    if (urls.length === 0) throw new TypeError('no live instance');
    const url = urls[next++ % urls.length]!;
    if (!trace) return fetch(url, init);
    const body = typeof init?.body === 'string' ? init.body.slice(0, 90) : '';
    const line = `${trace.now()} ms ${init?.method ?? 'GET'} ${url.slice(-11)} ${body}`;
    try {
      const response = await fetch(url, init);
      trace.record(`${line} → ${response.status}`);
      return response;
    } catch (error) {
      trace.record(`${line} → ${String(error)}`);
      throw error;
    }
  };
}

/** A client of `era` connected through `fetch`, with a generous timeout (hangs are ours to see). */
export async function chaosClient(
  era: 'modern' | 'legacy',
  fetchVia: typeof fetch,
  extra: Partial<ClientOptions> = {},
): Promise<Client> {
  const client = createClient({ name: `chaos-${era}`, version: '1', era, timeoutMs: 120_000, ...extra });
  await client.connect(streamableHttp('http://127.0.0.1/mcp', { fetch: fetchVia }));
  return client;
}

const textOf = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

/** One of the load's worker loops; `until` is the deadline (performance.now() ms). */
export type Worker = (ledger: ChaosLedger, until: number) => Promise<void>;

/** Plain modern calls: `mark` (executed once per id, counted in Redis) and `chatty`. */
export function modernCalls(client: Client): Worker {
  return async (ledger, until) => {
    while (performance.now() < until) {
      const id = randomUUID();
      ledger.marks.push(id);
      await ledger.run(
        'modern tools/call',
        () => client.callTool('mark', { id }),
        (r) => (textOf(r).startsWith('marked on') ? 'answered' : 'misrouted'),
      );
      await ledger.run(
        'modern tools/call',
        () => client.callTool('chatty', {}),
        (r) => (textOf(r).startsWith('logged on') ? 'answered' : 'misrouted'),
      );
    }
  };
}

/** Modern multi round-trip elicitation (`sign`): the answer must come back in the result. */
export function modernElicitation(fetchVia: typeof fetch, worker: number): Promise<Worker> {
  let expected = '';
  const handlers = {
    elicitation: () => Promise.resolve({ action: 'accept' as const, content: { name: expected } }),
  };
  return chaosClient('modern', fetchVia, { handlers }).then((client) => async (ledger, until) => {
    for (let n = 0; performance.now() < until; n++) {
      expected = `w${worker}-${n}`;
      const want = `signed ${expected} on`;
      await ledger.run(
        'modern elicitation (MRTR)',
        () => client.callTool('sign', {}),
        (r) => (textOf(r).startsWith(want) ? 'answered' : 'misrouted'),
      );
    }
  });
}

/** Legacy sessions whose tool asks the client (`approve`): asked once per call, then approved. */
export function legacyElicitation(live: () => readonly string[]): Promise<Worker> {
  let asks = 0;
  const trace = new Trace();
  const fetchVia = balancer(live, trace);
  const handlers = {
    elicitation: () => {
      trace.record(`${trace.now()} ms elicitation asked`);
      asks++;
      return Promise.resolve({ action: 'accept' as const, content: { ok: true } });
    },
  };
  return chaosClient('legacy', fetchVia, { handlers }).then((client) => async (ledger, until) => {
    while (performance.now() < until) {
      asks = 0;
      await ledger.run('legacy elicitation (session)', () => client.callTool('approve', {}), {
        verdict: (r) =>
          asks > 1 ? 'duplicated' : textOf(r).startsWith('approved on') ? 'answered' : 'misrouted',
        trace,
      });
    }
  });
}

/** Tasks of a retry-safe tool, created through one instance and awaited through others. */
export function tasks(creator: Client, poller: Client): Worker {
  return async (ledger, until) => {
    while (performance.now() < until) {
      await ledger.run(
        'task (create → result)',
        async () => {
          const handle = await creator.callTool('slow_retry_safe', { ms: 300 }, { task: 'allow' });
          if (!(handle instanceof TaskHandle)) return handle;
          try {
            return await poller.resumeTask(handle.reference).result();
          } catch (error) {
            if (error instanceof WireError && /not found|unknown|expired/i.test(error.message)) return 'lost';
            throw error;
          }
        },
        (r) => (r === 'lost' ? 'lost' : textOf(r).startsWith('worked 300 ms') ? 'answered' : 'misrouted'),
      );
    }
  };
}

/** A listen stream that re-subscribes on its own; `seen` is when it last heard a list change. */
export interface Listener {
  readonly era: 'modern' | 'legacy';
  lastSeen: number;
  close(): Promise<void>;
}

/** Opens a `tools` listen on `era` that reconnects by itself. */
export async function listener(era: 'modern' | 'legacy', fetchVia: typeof fetch): Promise<Listener> {
  const client = await chaosClient(era, fetchVia);
  const sub = client.listen({ toolsListChanged: true }, { reconnect: true });
  await sub.acknowledged;
  const state: Listener = {
    era,
    lastSeen: 0,
    async close() {
      sub.close();
      await client.close();
    },
  };
  void (async () => {
    for await (const n of sub as AsyncIterable<JsonRpcNotification>)
      if (n.method === 'notifications/tools/list_changed') state.lastSeen = performance.now();
  })().catch(() => undefined); // an ended iteration shows as a listener that never recovers
  return state;
}
