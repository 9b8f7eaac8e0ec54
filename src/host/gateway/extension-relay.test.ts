/**
 * Extensions the gateway does not know, relayed to the backend that declares them: real
 * backends (modern, over HTTP) that define custom extensions with `defineExtension`, a
 * gateway served over HTTP, and front clients of both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  defineExtension as clientExtension,
  method,
  streamableHttp,
  type Client,
} from '../../client/index.js';
import { WireError, type JsonRpcNotification, type Params } from '../../core/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer, defineExtension, negotiated } from '../../server/index.js';
import { deferred } from '../../../test/support/wait.js';
import { createGateway, createHost, type Host } from '../index.js';
import { NOTIFY_PER_SECOND } from './extension-relay.js';

const ECHO = 'com.example/echo';
const SHARED = 'com.example/shared';
const THING = 'org.example/thing';
const STORM = 5000;

/** `PINGERS` pings wait for each other on the backend, so they are in flight together. */
const PINGERS = 4;
let arrived = 0;
const together = deferred();

function echoBackend() {
  const echo = defineExtension({
    id: ECHO,
    settings: { loud: true },
    methods: {
      'echo/ping': async (params: { text?: unknown; wait?: boolean }, ctx) => {
        if (params.wait && ++arrived === PINGERS) together.resolve();
        if (params.wait) await together.promise;
        ctx.notify('notifications/echo/pong', { text: params.text });
        return { text: params.text, settings: negotiated(ctx, ECHO) ?? null };
      },
      'echo/storm': (_p: Params, ctx) => {
        for (let i = 0; i < STORM; i++) ctx.notify('notifications/echo/pong', { text: 'storm', i });
        return { sent: STORM };
      },
    },
  });
  const shared = defineExtension({ id: SHARED, methods: { 'shared/x': () => ({ from: 'a' }) } });
  return createServer({ name: 'a', version: '1', extensions: [echo, shared] });
}

function otherBackend() {
  const shared = defineExtension({ id: SHARED, methods: { 'shared/x': () => ({ from: 'b' }) } });
  const thing = defineExtension({ id: THING, methods: { 'thing/do': () => ({ done: true }) } });
  return createServer({ name: 'b', version: '1', extensions: [shared, thing] });
}

const echoClient = clientExtension({
  id: ECHO,
  settings: { v: 1 },
  methods: {
    'echo/ping': method<{ text: string; wait?: boolean }, { text: string; settings: Params | null }>(),
  },
});

describe('extensions the gateway does not know', () => {
  const served: Served[] = [];
  const clients: Client[] = [];
  let host: Host;
  let front: Served;

  beforeAll(async () => {
    served.push(await serve(echoBackend(), { port: 0 }), await serve(otherBackend(), { port: 0 }));
    host = createHost({ servers: { a: { url: served[0]!.url }, b: { url: served[1]!.url } } });
    await host.start();
    front = await serve(createGateway(host).server, { port: 0 });
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await front?.close();
    await host?.close();
    for (const s of served) await s.close();
  });

  async function frontClient(
    era: 'modern' | 'legacy',
    ids: string[] = [ECHO],
    heard: JsonRpcNotification[] = [],
  ) {
    const extensions = ids.map((id) => (id === ECHO ? echoClient : clientExtension({ id })));
    const client = createClient({
      name: 'front',
      version: '1',
      era,
      extensions,
      onNotification: (n) => void (n.method === 'notifications/echo/pong' && heard.push(n)),
    });
    await client.connect(streamableHttp(front.url));
    if (era === 'modern') await client.discover();
    clients.push(client);
    return client;
  }

  describe.each(['modern', 'legacy'] as const)('%s front', (era) => {
    it('declares an extension one backend declares, with its settings, and not one two declare', async () => {
      const client = await frontClient(era);
      expect(client.serverExtension(ECHO)).toEqual({ loud: true });
      expect(client.serverExtension(THING)).toEqual({});
      expect(client.serverExtension(SHARED)).toBeUndefined();
    });

    it('relays its method with the front client’s negotiation, and the result to that caller', async () => {
      const client = await frontClient(era);
      const pong = await client.request('echo/ping', { text: `hi ${era}` });
      expect(pong).toMatchObject({ text: `hi ${era}`, settings: { v: 1 } });
    });

    it('answers -32601 when the front client did not negotiate the extension', async () => {
      const client = await frontClient(era, []);
      const error = await client.request('echo/ping', { text: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WireError);
      expect((error as WireError).code).toBe(-32601);
    });

    it('refuses, naming why, a method it cannot route to one backend', async () => {
      const shared = await frontClient(era, [SHARED]);
      await expect(shared.request('shared/x', {})).rejects.toThrow(/declared by several servers/);
      const both = await frontClient(era, [ECHO, THING]);
      await expect(both.request('echo/ping', { text: 'x' })).rejects.toThrow(/several servers \(a, b\)/);
    });
  });

  it('gives each of several concurrent callers only its own result and notifications', async () => {
    const heard = Array.from({ length: PINGERS }, () => [] as JsonRpcNotification[]);
    const callers = await Promise.all(
      heard.map((h, i) => frontClient(i % 2 === 0 ? 'modern' : 'legacy', [ECHO], h)),
    );
    const results = await Promise.all(
      callers.map((c, i) => c.request('echo/ping', { text: `c${i}`, wait: true })),
    );
    results.forEach((r, i) => expect(r.text).toBe(`c${i}`));
    heard.forEach((h, i) => expect(h.map((n) => n.params?.text)).toEqual([`c${i}`]));
  });

  it('bounds a notification storm to its own caller while another caller is answered', async () => {
    const stormHeard: JsonRpcNotification[] = [];
    const pingHeard: JsonRpcNotification[] = [];
    const storm = await frontClient('modern', [ECHO], stormHeard);
    const ping = await frontClient('modern', [ECHO], pingHeard);
    const started = performance.now();
    const [stormed, pong] = await Promise.all([
      storm.request('echo/storm' as 'echo/ping', {} as never),
      ping.request('echo/ping', { text: 'calm' }),
    ]);
    const seconds = (performance.now() - started) / 1000;
    expect(stormed).toMatchObject({ sent: STORM });
    expect(pong.text).toBe('calm');
    expect(pingHeard.map((n) => n.params?.text)).toEqual(['calm']);
    expect(stormHeard.length).toBeGreaterThan(0);
    expect(stormHeard.length).toBeLessThanOrEqual(NOTIFY_PER_SECOND * (1 + seconds));
    expect(stormHeard.every((n) => n.params?.text === 'storm')).toBe(true);
  });
});
