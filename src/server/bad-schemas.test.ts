/**
 * A server author's schema that cannot work: a `$ref` to a network document (never
 * fetched) is refused at registration, naming the tool and the reference; a fault only
 * ajv finds (on first use) makes the call fail with -32603 naming the tool and the fault,
 * never a bare "Internal error".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer, type McpServer } from './index.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const NETWORK_REF = { type: 'object', properties: { a: { $ref: 'https://example.com/x.json' } } };

const peers: Peer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.close();
});

async function open(server: McpServer): Promise<Peer> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(a, {
    request: () => Promise.reject(WireError.of('MethodNotFound', 'no')),
    notification: () => undefined,
  });
  await peer.start();
  peers.push(peer);
  return peer;
}

describe('a schema with a $ref to a network document', () => {
  it('is refused when the tool is registered, naming the tool and the reference', () => {
    const server = createServer({ name: 's', version: '1' });
    expect(() => server.tool('lookup', { inputSchema: NETWORK_REF }, () => 'ok')).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(
          /^tool 'lookup' inputSchema: Invalid JSON Schema: \$ref "https:\/\/example.com\/x.json" at \/properties\/a names a document outside the schema/,
        ),
      }),
    );
    expect(() =>
      server.tool('out', { outputSchema: NETWORK_REF }, () => ({ content: [], structuredContent: {} })),
    ).toThrow(/^tool 'out' outputSchema: .*example\.com/);
    expect(() => server.prompt('p', { argsSchema: NETWORK_REF }, () => [])).toThrow(
      /^prompt 'p' argsSchema: .*example\.com/,
    );
  });
});

describe('a schema whose fault only ajv finds, on first use', () => {
  const server = createServer({ name: 's', version: '1' });
  const bad = { type: 'object', properties: { a: { minLength: 'two' } } };
  server.tool('picky', { inputSchema: bad }, () => 'ok');
  server.tool('shaped', { outputSchema: bad }, () => ({ content: [], structuredContent: {} }));
  server.prompt('asks', { argsSchema: bad }, () => []);

  it.each([
    ['tools/call', { name: 'picky', arguments: { a: 'x' } }, "tool 'picky' inputSchema"],
    ['tools/call', { name: 'shaped', arguments: {} }, "tool 'shaped' outputSchema"],
    ['prompts/get', { name: 'asks', arguments: { a: 'x' } }, "prompt 'asks' argsSchema"],
  ])('%s %o fails with -32603 naming %s and the fault', async (method, params, owner) => {
    const peer = await open(server);
    await expect(peer.request(method, { ...params, _meta: MODERN_META })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        new RegExp(`^${owner}: Invalid JSON Schema: .*minLength must be integer`),
      ),
    });
  });
});
