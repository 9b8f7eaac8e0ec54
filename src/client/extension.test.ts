import { describe, expect, expectTypeOf, it } from 'vitest';
import { LocalError, TASKS_EXTENSION, type Params, type TaskView } from '../core/index.js';
import { createServer, connect, defineExtension as serverExtension, negotiated } from '../server/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import {
  createClient,
  defineExtension,
  method,
  tasksExtension,
  type Client,
  type ParamsFor,
  type ResultFor,
} from './index.js';

const ECHO_ID = 'com.example/echo';

/** A server whose `echo/seen` tells which extensions the request declared. */
function seenServer() {
  const seen = serverExtension({
    id: ECHO_ID,
    requiresNegotiation: false,
    methods: {
      'echo/seen': (_p: Params, ctx) => ({
        echo: negotiated(ctx, ECHO_ID) ?? null,
        tasks: negotiated(ctx, TASKS_EXTENSION) ?? null,
      }),
    },
  });
  return createServer({ name: 's', version: '1', extensions: [seen] });
}

async function clientWith(era: 'modern' | 'legacy', advertise: 'always' | 'on-use'): Promise<Client> {
  const echo = defineExtension({
    id: ECHO_ID,
    settings: { v: 1 },
    advertise,
    methods: { 'echo/seen': method<Params, { echo: Params | null }>() },
  });
  const [a, b] = createLinkedPair();
  await connect(seenServer(), b);
  const client = createClient({ name: 'c', version: '1', era, extensions: [echo] });
  await client.connect(validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25'));
  return client;
}

describe('the client extension seam', () => {
  it.each(['modern', 'legacy'] as const)(
    'advertises an extension advertised always on every request (%s)',
    async (era) => {
      const client = await clientWith(era, 'always');
      expect(await client.request('echo/seen', {})).toMatchObject({ echo: { v: 1 }, tasks: null });
      await client.close();
    },
  );

  it('keeps an extension advertised on use out of plain requests', async () => {
    const client = await clientWith('modern', 'on-use');
    expect(await client.request('echo/seen', {})).toMatchObject({ echo: null, tasks: null });
    await client.close();
  });

  it('refuses a malformed identifier and a core method name, as the server side does', () => {
    expect(() => defineExtension({ id: 'echo' })).toThrow(LocalError);
    expect(() => defineExtension({ id: ECHO_ID, methods: { 'tools/echo': method() } })).toThrow(
      /core method name/,
    );
  });

  it('defines Tasks with the methods SEP-2663 keeps, modern only, advertised on use', () => {
    expect(tasksExtension).toMatchObject({ id: TASKS_EXTENSION, eras: ['modern'], advertise: 'on-use' });
    // tasks/result and tasks/list were removed by SEP-2663 ("Backward Compatibility").
    expect(Object.keys(tasksExtension.methods ?? {}).sort()).toEqual([
      'tasks/cancel',
      'tasks/get',
      'tasks/update',
    ]);
    expectTypeOf<ResultFor<'tasks/get'>>().toEqualTypeOf<TaskView>();
    expectTypeOf<ParamsFor<'tasks/cancel'>>().toEqualTypeOf<{ taskId: string } & Params>();
  });
});
