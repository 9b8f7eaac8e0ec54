/**
 * Modern client → gateway → modern backend (the relay): the backend's `requestState` held
 * for a client's retry goes back only with that client's retry. Regression: it was held by
 * tool and arguments, so a second client calling the same tool got the first one's state
 * (and the backend continued the other client's run with this client's answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { createGateway, createHost, type Host } from '../index.js';

/** A deferred promise. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => undefined as void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

describe('the relay to a modern backend', () => {
  let backend: Served;
  let host: Host;
  let front: Served;

  beforeAll(async () => {
    const server = createServer({ name: 'twice', version: '1.0.0', eras: ['modern'] });
    server.tool('twice', { description: 'Asks two questions' }, async (_args, ctx) => {
      const schema = { type: 'object', properties: { v: { type: 'string' } } } as const;
      const first = await ctx.elicit({ message: 'first?', requestedSchema: schema }, { key: 'q1' });
      const second = await ctx.elicit({ message: 'second?', requestedSchema: schema }, { key: 'q2' });
      return `${String(first.content?.v)}/${String(second.content?.v)}`;
    });
    backend = await serve(server, { port: 0 });
    host = createHost({ servers: { b: { url: backend.url, era: 'modern' } } });
    await host.start();
    front = await serve(createGateway(host).server, { port: 0 });
  });

  afterAll(async () => {
    await front?.close();
    await host?.close();
    await backend?.close();
  });

  function client(answer: (message: string) => Promise<string>): Client {
    return createClient({
      name: 'front',
      version: '1',
      era: 'modern',
      handlers: {
        elicitation: async (params) => ({
          action: 'accept',
          content: { v: await answer(String(params.message)) },
        }),
      },
    });
  }

  it("gives a client's retry only its own held requestState when two clients call the same tool", async () => {
    const bAskedSecond = signal();
    const aDone = signal();
    // A answers its first question only after B's second round is held, then its second at once.
    const a = client(async (m) => (m === 'first?' ? (await bAskedSecond.promise, 'alice') : 'a2'));
    const b = client(async (m) => {
      if (m === 'first?') return 'bob';
      bAskedSecond.fire();
      await aDone.promise;
      return 'b2';
    });
    await a.connect(streamableHttp(front.url));
    await b.connect(streamableHttp(front.url));
    try {
      const resultB = b.callTool('b__twice', {});
      const resultA = await a.callTool('b__twice', {});
      aDone.fire();
      expect(resultA.content).toEqual([{ type: 'text', text: 'alice/a2' }]);
      expect((await resultB).content).toEqual([{ type: 'text', text: 'bob/b2' }]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
