/**
 * A backend that sends 200 notifications/tools/list_changed back to back costs the host one
 * re-list plus at most one follow-up, and the gateway's front clients a bounded number of
 * notifications, not 200 of each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect, createServer, type McpServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { turns, until } from '../../../test/support/wait.js';
import { createGateway, createHost, type Host } from '../index.js';

describe.each(['legacy', 'modern'] as const)('a burst of 200 tools list_changed from a %s backend', (era) => {
  let backend: McpServer;
  let served: Served;
  let host: Host;
  let client: Client;
  let relists = 0;
  let gate: Promise<void> = Promise.resolve();
  const front: string[] = [];

  beforeAll(async () => {
    backend = createServer({ name: 'busy', version: '1' });
    backend.tool('first', { description: 'one' }, () => 'one');
    backend.use((next) => async (message, ctx) => {
      if (message.kind === 'request' && message.method === 'tools/list') {
        relists++;
        await gate;
      }
      return next(message, ctx);
    });
    served = await serve(backend, { port: 0 });
    host = createHost({ servers: { busy: { url: served.url, era } } });
    await host.start();
    const [a, b] = createLinkedPair();
    await connect(createGateway(host).server, b);
    client = createClient({
      name: 'front',
      version: '1',
      era: 'legacy',
      onNotification: (n) => void front.push(n.method),
    });
    await client.connect(a);
  });

  afterAll(async () => {
    await client?.close();
    await host?.close();
    await served?.close();
  });

  it('costs a bounded number of re-lists and notifies the front a bounded number of times', async () => {
    // A modern host lists once more when its listen is acknowledged: from then on it hears changes.
    await until(() => relists >= (era === 'modern' ? 2 : 1), 10_000);
    await client.listTools();
    const before = relists;
    let open = (): void => undefined;
    gate = new Promise<void>((resolve) => (open = resolve));
    backend.tool('added', { description: 'two' }, () => 'two');
    for (let i = 0; i < 199; i++) backend.notifyToolsChanged();
    await until(() => relists > before, 10_000);
    await turns(300); // the rest of the burst reaches the host while the first re-list waits
    open();
    await until(async () => (await client.listTools()).some((t) => t.name.endsWith('added')), 10_000);
    await turns(50);
    // The host re-lists once and follows up once; all in all the backend sees at most three
    // tools/list for 200 notifications (it saw one per notification).
    expect(relists - before).toBeLessThanOrEqual(3);
    const notified = front.filter((m) => m === 'notifications/tools/list_changed').length;
    expect(notified).toBeGreaterThanOrEqual(1);
    expect(notified).toBeLessThanOrEqual(2);
  });
});
