/**
 * The gateway keeps a backend tool's `$schema` when the front can compile that dialect
 * (2020-12, draft-07), so front clients see the schema as the backend declared it; a
 * dialect it cannot compile (draft-04) is served without `$schema` rather than dropped, and
 * the backend still checks the arguments. The backend is the official SDK v1 on stdio.
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

  it('lists 2020-12 and draft-07 schemas with their $schema, draft-04 without it', async () => {
    const tools = await client.listTools();
    const dialect = (name: string) =>
      (tools.find((t) => t.name === name)?.inputSchema as { $schema?: string } | undefined)?.$schema;
    expect(tools.map((t) => t.name).sort()).toEqual(['four', 'modern', 'seven']);
    expect(dialect('modern')).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(dialect('seven')).toBe('http://json-schema.org/draft-07/schema#');
    expect(dialect('four')).toBeUndefined();
  });

  it('calls a tool of each dialect through to the backend', async () => {
    for (const name of ['modern', 'seven', 'four']) {
      const result = await client.callTool(name, { text: name });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ text: name }) }]);
    }
  });
});
