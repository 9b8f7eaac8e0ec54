/**
 * The gateway never relays a number it may have changed: an integer beyond ±(2^53 − 1)
 * (1917043659912705296 arrives as 1917043659912705300) in a call's arguments or in a
 * backend's result is refused with a tool error naming where it is; so is every other
 * message the gateway relays (prompt arguments, resource contents, notifications,
 * elicitation answers), on both eras of the front.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { connect } from '../../server/index.js';
import { createGateway, createHost, type Host } from '../index.js';
import { deliverExact, firstUnsafeInteger } from '../exact-numbers.js';

const ROUNDED = JSON.parse('1917043659912705296') as number;

describe('a gateway relaying an integer a JSON number cannot carry exactly', () => {
  let backend: Served;
  let host: Host;
  let client: Client;
  const seen: unknown[] = [];

  beforeAll(async () => {
    const server = createServer({ name: 'ledger', version: '1.0.0' });
    const anyArgs = { type: 'object', additionalProperties: true } as const;
    server.tool('record', { description: 'Records', inputSchema: anyArgs }, (args) => {
      seen.push(args);
      return 'recorded';
    });
    server.tool('lookup', { description: 'Looks up' }, () => ({
      content: [{ type: 'text', text: 'found' }],
      structuredContent: { orderId: ROUNDED },
    }));
    backend = await serve(server, { port: 0 });
    host = createHost({ servers: { ledger: { url: backend.url } } });
    await host.start();
    const [a, b] = createLinkedPair();
    await connect(createGateway(host).server, b);
    client = createClient({ name: 'front', version: '1', era: 'modern' });
    await client.connect(a);
  });

  afterAll(async () => {
    await client?.close();
    await host?.close();
    await backend?.close();
  });

  it('refuses the call instead of sending the backend a rounded argument', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    const record = names.find((n) => n.endsWith('record')) ?? 'record';
    const result = await client.callTool(record, { entry: { amount: ROUNDED } });
    expect(seen).toEqual([]);
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain(`at '/entry/amount'`);
    expect(await client.callTool(record, { entry: { amount: 12.5 } })).toMatchObject({
      content: [{ text: 'recorded' }],
    });
    expect(seen).toEqual([{ entry: { amount: 12.5 } }]);
  });

  it("refuses a backend's result instead of passing it on rounded", async () => {
    const names = (await client.listTools()).map((t) => t.name);
    const result = await client.callTool(names.find((n) => n.endsWith('lookup')) ?? 'lookup', {});
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain(`at '/structuredContent/orderId'`);
  });
});

describe('firstUnsafeInteger', () => {
  it.each([
    [{ a: [1, 2.5, Number.MAX_SAFE_INTEGER] }, undefined],
    [{ a: [1, { 'b/c': -ROUNDED }] }, '/a/1/b~1c'],
    [ROUNDED, '/'],
    ['1917043659912705296', undefined],
  ])('finds %j at %s', (value, pointer) => {
    expect(firstUnsafeInteger(value)).toBe(pointer);
  });
});

describe('every other message relayed through the gateway', () => {
  let backend: Served;
  let host: Host;
  const warnings: string[] = [];
  const fronts: Client[] = [];

  beforeAll(async () => {
    const server = createServer({ name: 'ledger', version: '1.0.0' });
    server.prompt('quote', { description: 'Quotes', arguments: [{ name: 'n' }] }, () => [
      { role: 'user', content: { type: 'text', text: 'quoted' } },
    ]);
    server.resource('ledger://row', { name: 'row' }, () => ({
      contents: [{ uri: 'ledger://row', text: 'row', _meta: { rowId: ROUNDED } }],
    }));
    server.tool('tick', { description: 'Ticks' }, (_args, ctx) => {
      ctx.progress(ROUNDED);
      ctx.log('info', { rowId: ROUNDED });
      return 'ticked';
    });
    server.tool('ask', { description: 'Asks' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Amount?',
        requestedSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      });
      return JSON.stringify(answer);
    });
    backend = await serve(server, { port: 0 });
    host = createHost({
      servers: { ledger: { url: backend.url, era: 'legacy' } },
      policy: { elicitation: 'allow' },
    });
    host.on('warning', ({ message }) => warnings.push(message));
    await host.start();
  });

  afterAll(async () => {
    for (const front of fronts) await front.close();
    await host?.close();
    await backend?.close();
  });

  async function front(era: 'modern' | 'legacy'): Promise<Client> {
    const [a, b] = createLinkedPair();
    await connect(createGateway(host).server, b);
    const client = createClient({
      name: 'front',
      version: '1',
      era,
      handlers: { elicitation: async () => ({ action: 'accept', content: { amount: ROUNDED } }) },
    });
    await client.connect(a);
    fronts.push(client);
    return client;
  }

  const named = async (client: Client, kind: 'tools' | 'prompts', suffix: string): Promise<string> => {
    const list = kind === 'tools' ? await client.listTools() : await client.listPrompts();
    return list.map((x) => x.name).find((n) => n.endsWith(suffix)) ?? suffix;
  };

  it.each(['modern', 'legacy'] as const)('refuses prompt arguments holding one (%s front)', async (era) => {
    const client = await front(era);
    const name = await named(client, 'prompts', 'quote');
    const sent = client.request('prompts/get', { name, arguments: { n: ROUNDED } } as never);
    await expect(sent).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("at '/arguments/n'"),
    });
    await expect(client.getPrompt(name, { n: '1' })).resolves.toBeDefined();
  });

  it.each(['modern', 'legacy'] as const)(
    "refuses a backend's resource contents holding one (%s front)",
    async (era) => {
      const client = await front(era);
      const uri = (await client.listResources()).find((r) => r.name === 'row')?.uri ?? 'ledger://row';
      await expect(client.readResource(uri)).rejects.toMatchObject({
        message: expect.stringContaining("at '/contents/0/_meta/rowId'"),
      });
    },
  );

  it("drops a backend's progress and log notifications holding one, with a warning naming them", async () => {
    const client = await front('modern');
    const onprogress = vi.fn();
    const result = await client.callTool(await named(client, 'tools', 'tick'), {}, { onprogress } as never);
    expect(result).toMatchObject({ content: [{ text: 'ticked' }] });
    expect(onprogress).not.toHaveBeenCalled();
    expect(warnings.some((w) => w.includes('notifications/progress') && w.includes("'/progress'"))).toBe(
      true,
    );
    expect(warnings.some((w) => w.includes('notifications/message') && w.includes("'/data/rowId'"))).toBe(
      true,
    );
  });

  it.each(['modern', 'legacy'] as const)(
    "refuses a front client's elicitation answer holding one (%s front)",
    async (era) => {
      const client = await front(era);
      const outcome = await client.callTool(await named(client, 'tools', 'ask'), {}).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
      expect(outcome).toMatch(/2\^53 − 1\) at '\/(inputResponses\/.*\/)?content\/amount'/);
      expect(outcome).not.toContain('1917043659912705300');
    },
  );
});

describe('deliverExact', () => {
  const big = '1917043659912705296';
  function run(text: string) {
    const out = { frames: [] as string[], replies: [] as unknown[], warnings: [] as string[] };
    deliverExact(text, undefined, {
      server: 's',
      frame: (t) => out.frames.push(t),
      reply: (m) => out.replies.push(m),
      warn: (m) => out.warnings.push(m),
    });
    return out;
  }

  it('passes a frame without such a number through untouched', () => {
    const text = `{"jsonrpc":"2.0","id":1,"result":{"id":"${big}","n":1.5}}`;
    expect(run(text)).toEqual({ frames: [text], replies: [], warnings: [] });
  });

  it('turns a response into error -32603 naming where', () => {
    const { frames } = run(`{"jsonrpc":"2.0","id":7,"result":{"completion":{"values":[],"total":${big}}}}`);
    expect(JSON.parse(frames[0] ?? '')).toMatchObject({
      id: 7,
      error: { code: -32603, data: { unsafeIntegerAt: '/completion/total' } },
    });
  });

  it("answers the server's own request with -32602 and delivers nothing", () => {
    const out = run(
      `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"maxTokens":1e300}}`,
    );
    expect(out.frames).toEqual([]);
    expect(out.replies).toMatchObject([{ id: 3, error: { code: -32602 } }]);
  });

  it('drops a notification and keeps the rest of a batch', () => {
    const ok = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const out = run(
      `[{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"n":${big}}},${JSON.stringify(ok)}]`,
    );
    expect(out.frames.map((f) => JSON.parse(f))).toEqual([[ok]]);
    expect(out.warnings[0]).toContain('notifications/resources/updated');
  });
});
