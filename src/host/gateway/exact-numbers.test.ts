/**
 * The gateway never relays a number it may have changed: an integer beyond ±(2^53 − 1)
 * (1917043659912705296 arrives as 1917043659912705300) in a call's arguments or in a
 * backend's result is refused with a tool error naming where it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { connect } from '../../server/index.js';
import { createGateway, createHost, type Host } from '../index.js';
import { firstUnsafeInteger } from './exact-numbers.js';

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
