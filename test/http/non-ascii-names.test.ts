/**
 * Names that need the `=?base64?…?=` header encoding, round-tripped mcpkit client → mcpkit
 * server over Streamable HTTP on the modern wire: tool names, prompt names, resource URIs
 * and `x-mcp-header` parameters with Latin accents, CJK, emoji, and leading or trailing
 * spaces. The printable-ASCII rule applies to the raw header, not the decoded value
 * (2026-07-28 basic/transports/streamable-http "Value Encoding", "Server Validation").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../src/client/index.js';
import { createServer } from '../../src/server/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';

const NAMES = ['café', '東京の天気', 'rocket 🚀', ' leading', 'trailing ', 'Ünïcödé-ß'];

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[])[0]?.text ?? '';
}

describe.each(['modern', 'legacy'] as const)('non-ASCII names over HTTP (%s era)', (era) => {
  let served: Served;
  let client: Client;
  const headersSeen: (string | null)[] = [];

  beforeAll(async () => {
    const server = createServer({ name: 'names', version: '1.0.0' });
    for (const name of NAMES) {
      server.tool(name, { description: `tool ${name}` }, () => ({
        content: [{ type: 'text', text: `tool:${name}` }],
      }));
      server.prompt(name, {}, () => [{ role: 'user', content: { type: 'text', text: `prompt:${name}` } }]);
      const uri = `file:///data/${name}.txt`;
      server.resource(uri, { name }, () => [{ uri, text: `resource:${name}` }]);
    }
    server.tool(
      'echo-region',
      {
        inputSchema: {
          type: 'object',
          properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
          required: ['region'],
        },
      },
      (args) => ({ content: [{ type: 'text', text: `region:${String(args.region)}` }] }),
    );
    served = await serve(server, { port: 0 });
    const fetchSpy: typeof fetch = (input, init) => {
      headersSeen.push(new Headers(init?.headers).get('mcp-param-region'));
      return fetch(input, init);
    };
    client = createClient({ name: 'names-client', version: '1.0.0', era });
    await client.connect(streamableHttp(served.url, { fetch: fetchSpy }));
  });

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it.each(NAMES)('calls the tool %j', async (name) => {
    expect(textOf(await client.callTool(name, {}))).toBe(`tool:${name}`);
  });

  it.each(NAMES)('gets the prompt %j', async (name) => {
    const result = await client.getPrompt(name, {});
    expect((result.messages[0]?.content as { text: string }).text).toBe(`prompt:${name}`);
  });

  it.each(NAMES)('reads the resource named %j', async (name) => {
    const result = await client.readResource(`file:///data/${name}.txt`);
    expect((result.contents[0] as { text: string }).text).toBe(`resource:${name}`);
  });

  it.each(NAMES)('mirrors the header parameter %j and the server accepts it', async (region) => {
    headersSeen.length = 0;
    expect(textOf(await client.callTool('echo-region', { region }))).toBe(`region:${region}`);
    const sent = headersSeen.find((h) => h !== null);
    if (era === 'modern') expect(sent).toMatch(/^=\?base64\?[A-Za-z0-9+/=]+\?=$/);
    else expect(sent).toBeUndefined();
  });
});
