/**
 * Streamable HTTP with real peers: the official v2 client (modern) and the official v1
 * client (`StreamableHTTPClientTransport`, legacy) drive our everything server served by
 * `serve()` on 127.0.0.1; our own client runs a tool that elicits twice and then samples
 * over HTTP on both eras (multi round-trip on modern, server-initiated requests on legacy).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../../src/client/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createServer } from '../../src/server/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { answerForm, NO_INPUT_TOOLS, checkResource } from './everything-expectations.js';
import { onlyText } from './helpers.js';

let everything: Served;
beforeAll(async () => {
  everything = await serve(createEverythingServer(), { port: 0 });
});
afterAll(async () => {
  await everything?.close();
});

describe('the official v2 client over Streamable HTTP (modern)', () => {
  it('lists and calls every no-input tool, reads resources and completes an eliciting tool', async () => {
    const client = new ModernClient(
      { name: 'official-v2-client', version: '2.4.0' },
      {
        capabilities: { elicitation: {}, sampling: {} },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => answerForm(request.params));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'fake',
    }));
    await client.connect(new ModernHttp(new URL(everything.url)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      for (const tool of NO_INPUT_TOOLS.filter((t) => tools.some((x) => x.name === t.name))) {
        tool.check((await client.callTool({ name: tool.name, arguments: tool.args })) as never);
      }
      for (const { uri } of (await client.listResources()).resources) {
        checkResource(uri, (await client.readResource({ uri })).contents as never);
      }
      const read = await client.readResource({ uri: 'test://template/123/data' });
      expect(JSON.stringify(read.contents)).toContain('123');
      const elicited = await client.callTool({
        name: 'test_input_required_result_elicitation',
        arguments: {},
      });
      expect(onlyText(elicited as never)).toMatch(/^Hello, /);
    } finally {
      await client.close();
    }
  });
});

describe('the official v1 client over Streamable HTTP (legacy sessions)', () => {
  it('initializes a session, calls tools, and answers sampling and elicitation on the session', async () => {
    const client = new LegacyClient(
      { name: 'official-v1-client', version: '1.32.2' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'fake',
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request) => answerForm(request.params) as never);
    const transport = new LegacyHttp(new URL(everything.url));
    await client.connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      expect(onlyText((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })) as never)).toBe(
        'hi',
      );
      const sampled = await client.callTool({
        name: 'test_sampling',
        arguments: { prompt: 'Capital of France?' },
      });
      expect(onlyText(sampled as never)).toContain('Paris');
      const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } });
      expect(onlyText(elicited as never)).toMatch(/accept/);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });
});

describe('our client over Streamable HTTP, both eras', () => {
  let served: Served;
  beforeAll(async () => {
    const server = createServer({ name: 'interview', version: '1.0.0' });
    server.tool('interview', { inputSchema: z.object({}) }, async (_args, ctx) => {
      const first = await ctx.elicit({
        mode: 'form',
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      const second = await ctx.elicit({
        mode: 'form',
        message: 'Colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
      });
      const model = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10,
      });
      const said = model.content && 'text' in model.content ? model.content.text : '?';
      return `${String(first.content?.name)} likes ${String(second.content?.colour)}; the model said ${said}`;
    });
    served = await serve(server, { port: 0 });
  });
  afterAll(async () => {
    await served?.close();
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`completes a tool that elicits twice then samples (${era})`, async () => {
      const asked: string[] = [];
      const client = createClient({
        name: 'interop',
        version: '1',
        era,
        handlers: {
          elicitation: async (params) => {
            asked.push(params.message);
            return {
              action: 'accept',
              content: params.message === 'Name?' ? { name: 'Ada' } : { colour: 'teal' },
            };
          },
          sampling: async () => ({
            role: 'assistant',
            content: { type: 'text', text: 'hello' },
            model: 'fake',
          }),
        },
      });
      const { streamableHttp } = await import('../../src/client/index.js');
      await client.connect(streamableHttp(served.url));
      try {
        expect(client.era).toBe(era);
        const result = await client.callTool('interview', {});
        expect(onlyText(result as never)).toBe('Ada likes teal; the model said hello');
        expect(asked).toEqual(['Name?', 'Colour?']);
      } finally {
        await client.close();
      }
    });
  }
});
