/**
 * The MRTR bridge when a legacy backend asks for two inputs at once in one call (an
 * elicitation and a roots/list, as server-everything's roots sync can overlap a call): a
 * modern client answers both, over successive input_required rounds, and each backend
 * request gets its own answer. This broke when a parked call kept only one waiting answer:
 * the second question took the first one's place and the first never got its answer (the
 * cause of an intermittent timeout of the official v2 client's MRTR bridge test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect, createServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

describe('a legacy backend asking for two inputs at once through the MRTR bridge', () => {
  let served: Served;
  let host: Host;
  let gateway: Gateway;
  let client: Client;

  beforeAll(async () => {
    const backend = createServer({ name: 'both', version: '1.0.0', eras: ['legacy'] });
    backend.tool('both', {}, async (_args, ctx) => {
      const [answer, roots] = await Promise.all([
        ctx.elicit({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        }),
        ctx.listRoots(),
      ]);
      return `${String(answer.content?.name)} in ${roots.roots.map((r) => r.uri).join(',')}`;
    });
    served = await serve(backend, { port: 0 });
    host = createHost({
      servers: { b: { url: served.url, era: 'legacy' } },
      policy: { elicitation: 'allow', roots: 'allow' },
    });
    await host.start();
    gateway = createGateway(host);
    const [a, b] = createLinkedPair();
    await connect(gateway.server, b);
    client = createClient({
      name: 'front',
      version: '1',
      era: 'modern',
      handlers: {
        elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
        roots: async () => ({ roots: [{ uri: 'file:///work' }] }),
      },
    });
    await client.connect(a);
  });

  afterAll(async () => {
    await client?.close();
    gateway?.close();
    await host?.close();
    await served?.close();
  });

  it('gives each backend request its own answer', async () => {
    const result = await client.callTool('b__both');
    expect(result.content).toEqual([{ type: 'text', text: 'Ada in file:///work' }]);
    expect(gateway.parkedCalls).toBe(0);
  });
});
