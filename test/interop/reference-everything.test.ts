/**
 * Our client drives the official everything server (`@modelcontextprotocol/server-everything`,
 * built on the v1 SDK, legacy era) over stdio, answering its sampling, elicitation and roots
 * requests with our handlers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireError, LocalError } from '../../src/core/errors.js';
import type { CreateMessageRequestParams, ElicitResult } from '../../src/core/types/index.js';
import { onlyText, texts } from './helpers.js';
import { closeSessions, connectTo, type Session } from './reference-session.js';

afterAll(async () => {
  expect(await closeSessions()).toEqual([]);
});

describe('our client against the official everything server', () => {
  const roots = [{ uri: 'file:///tmp/mcpkit-interop-root', name: 'interop root' }];
  const samplingRequests: CreateMessageRequestParams[] = [];
  let every: Session;

  beforeAll(async () => {
    every = await connectTo('server-everything', ['stdio'], {
      handlers: {
        sampling: async (params) => {
          samplingRequests.push(params as CreateMessageRequestParams);
          return {
            role: 'assistant',
            content: { type: 'text', text: 'sampled by mcpkit' },
            model: 'fake-model',
          };
        },
        elicitation: async (): Promise<ElicitResult> => ({
          action: 'accept',
          content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' },
        }),
        roots: async () => ({ roots }),
      },
    });
  });

  it('detects the legacy era, negotiates 2025-11-25 and reads the capabilities', () => {
    expect(every.client.era).toBe('legacy');
    expect(every.client.protocolVersion).toBe('2025-11-25');
    expect(every.client.serverInfo?.name).toBe('mcp-servers/everything');
    expect(every.client.serverCapabilities).toMatchObject({
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      logging: {},
      completions: {},
    });
  });

  it('lists the tools, including those it registers only for clients that can sample, elicit and give roots', async () => {
    const names = (await every.client.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-sum',
        'get-tiny-image',
        'trigger-long-running-operation',
        'trigger-sampling-request',
        'trigger-elicitation-request',
        'get-roots-list',
      ]),
    );
  });

  it('echoes a message and adds two numbers', async () => {
    expect(onlyText(await every.client.callTool('echo', { message: 'hello, everything' }))).toBe(
      'Echo: hello, everything',
    );
    expect(onlyText(await every.client.callTool('get-sum', { a: 2, b: 40 }))).toBe(
      'The sum of 2 and 40 is 42.',
    );
  });

  it('returns an image item', async () => {
    const result = await every.client.callTool('get-tiny-image', {});
    const image = (result.content as { type: string; mimeType?: string; data?: string }[]).find(
      (c) => c.type === 'image',
    );
    expect(image?.mimeType).toBe('image/png');
    expect(
      Buffer.from(image?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
  });

  it('accepts structured content that matches the declared outputSchema', async () => {
    const result = await every.client.callTool('get-structured-content', { location: 'Chicago' });
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('surfaces an unknown tool the way the v1 SDK reports it: a tool result with isError', async () => {
    const result = await every.client.request('tools/call', { name: 'no-such-tool', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toMatch(/-32602.*no-such-tool not found/);
  });

  it('rejects reading an unknown resource with a wire error', async () => {
    await expect(every.client.readResource('demo://resource/nowhere')).rejects.toBeInstanceOf(WireError);
  });

  it('delivers progress of a long-running operation to onprogress', async () => {
    const progress: number[] = [];
    const result = await every.client.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(onlyText(result)).toContain('Steps: 3');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('cancels a long-running operation by AbortSignal and keeps the session usable', async () => {
    const controller = new AbortController();
    const call = every.client.callTool(
      'trigger-long-running-operation',
      { duration: 20, steps: 100 },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ name: 'LocalError', code: 'ABORTED' });
    await expect(call).rejects.toBeInstanceOf(LocalError);
    const cancelled = every.frames.filter(
      (f) => f.direction === 'out' && f.message.method === 'notifications/cancelled',
    );
    expect(cancelled).toHaveLength(1);
    expect(onlyText(await every.client.callTool('echo', { message: 'still here' }))).toBe('Echo: still here');
  });

  it('answers the sampling request the server sends during a tool call', async () => {
    const result = await every.client.callTool('trigger-sampling-request', {
      prompt: 'Say hi',
      maxTokens: 7,
    });
    expect(onlyText(result)).toContain('sampled by mcpkit');
    expect(samplingRequests.at(-1)).toMatchObject({
      maxTokens: 7,
      messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('Say hi') } }],
    });
  });

  it('answers the elicitation request the server sends during a tool call', async () => {
    const all = texts(await every.client.callTool('trigger-elicitation-request', {})).join('\n');
    expect(all).toContain('User provided the requested information');
    expect(all).toContain('- Name: Ada Lovelace');
    expect(all).toContain('- Email: ada@example.com');
  });

  it('gives the server its roots', async () => {
    const text = onlyText(await every.client.callTool('get-roots-list', {}));
    expect(text).toContain('Current MCP Roots (1 total)');
    expect(text).toContain(roots[0]?.uri);
  });

  it('lists resources and templates and reads a static document', async () => {
    const resources = await every.client.listResources();
    const doc = resources.find((r) => r.uri === 'demo://resource/static/document/features.md');
    expect(doc).toMatchObject({ name: 'features.md', mimeType: 'text/markdown' });
    const templates = (await every.client.listResourceTemplates()).map((t) => t.uriTemplate);
    expect(templates).toEqual(
      expect.arrayContaining([
        'demo://resource/dynamic/text/{resourceId}',
        'demo://resource/dynamic/blob/{resourceId}',
      ]),
    );
    const read = await every.client.readResource('demo://resource/static/document/features.md');
    const [content] = read.contents as { uri: string; mimeType?: string; text?: string }[];
    expect(content?.uri).toBe('demo://resource/static/document/features.md');
    expect(content?.text?.length).toBeGreaterThan(0);
  });

  it('reads text and blob resources from the templates', async () => {
    const text = await every.client.readResource('demo://resource/dynamic/text/7');
    expect(text.contents[0]).toMatchObject({
      uri: 'demo://resource/dynamic/text/7',
      text: expect.stringMatching(/^Resource 7: This is a plaintext resource/),
    });
    const blob = await every.client.readResource('demo://resource/dynamic/blob/8');
    const data = (blob.contents[0] as { blob?: string }).blob ?? '';
    expect(Buffer.from(data, 'base64').toString('utf8')).toMatch(/^Resource 8: This is a base64 blob/);
  });

  it('lists prompts and gets them with and without arguments', async () => {
    const names = (await every.client.listPrompts()).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']));
    const simple = await every.client.getPrompt('simple-prompt');
    expect(simple.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
    ]);
    const args = await every.client.getPrompt('args-prompt', { city: 'Paris', state: 'Texas' });
    expect(args.messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Paris, Texas?" });
  });

  it('completes a prompt argument', async () => {
    const result = await every.client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'Sa' },
    );
    expect(result.completion.values).toEqual(['Sales']);
  });

  it('answers ping and logging/setLevel', async () => {
    await expect(every.client.ping()).resolves.toBeUndefined();
    await expect(every.client.setLoggingLevel('debug')).resolves.toBeUndefined();
  });
});
