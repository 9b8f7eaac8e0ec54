/**
 * The gateway lists a backend tool's schema as the backend declared it, `$schema` included,
 * in any dialect (2020-12, draft-07, draft-04, which mcpkit itself does not compile), and
 * checks no arguments itself: the backend does. The backend is the official SDK v1 on stdio.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createGateway, createHost, type Host } from '../index.js';

const fixture = fileURLToPath(new URL('../../../test/support/fixtures/dialect-server.mjs', import.meta.url));

describe('the gateway and JSON Schema dialects', () => {
  let host: Host;
  let front: Served;
  let client: Client;

  beforeAll(async () => {
    host = createHost({
      servers: { d: { command: process.execPath, args: [fixture] } },
      qualify: (_server, name) => name,
    });
    await host.start();
    front = await serve(createGateway(host).server, { port: 0 });
    client = createClient({ name: 'front', version: '1' });
    await client.connect(streamableHttp(front.url));
  });

  afterAll(async () => {
    await client?.close();
    await front?.close();
    await host?.close();
  });

  it('lists every schema with its $schema, as declared', async () => {
    const tools = await client.listTools();
    const dialect = (name: string) =>
      (tools.find((t) => t.name === name)?.inputSchema as { $schema?: string } | undefined)?.$schema;
    expect(tools.map((t) => t.name).sort()).toEqual(['four', 'modern', 'seven']);
    expect(dialect('modern')).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(dialect('seven')).toBe('http://json-schema.org/draft-07/schema#');
    expect(dialect('four')).toBe('http://json-schema.org/draft-04/schema#');
    const four = tools.find((t) => t.name === 'four')?.inputSchema as { properties?: object };
    expect(four.properties).toEqual({
      text: { type: 'string' },
      n: { type: 'number', minimum: 0, exclusiveMinimum: true },
    });
  });

  it('calls a tool of each dialect through to the backend', async () => {
    for (const name of ['modern', 'seven', 'four']) {
      const result = await client.callTool(name, { text: name });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ text: name }) }]);
    }
    // draft-04 arguments the front could not have checked reach the backend as sent.
    const result = await client.callTool('four', { text: 'x', n: 3 });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ text: 'x', n: 3 }) }]);
  });
});
