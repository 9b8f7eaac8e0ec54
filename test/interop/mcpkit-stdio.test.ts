/**
 * Our client against our everything server, each in its own process, over stdio: the era
 * pinned to modern, pinned to legacy, and probed ('auto', which must find modern). Every
 * frame in both directions is checked against the official schema of the revision in use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireError } from '../../src/core/errors.js';
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import type { CreateMessageRequestParams } from '../../src/core/types/index.js';
import { createClient, type Client, type EraPreference } from '../../src/client/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { onlyText, OUR_EVERYTHING, tap, wireViolations, type Frame } from './helpers.js';

const CASES: { era: EraPreference; expected: 'modern' | 'legacy'; version: '2026-07-28' | '2025-11-25' }[] = [
  { era: 'modern', expected: 'modern', version: '2026-07-28' },
  { era: 'legacy', expected: 'legacy', version: '2025-11-25' },
  { era: 'auto', expected: 'modern', version: '2026-07-28' },
];

describe.each(CASES)('our client (era: $era) against our everything server', ({ era, expected, version }) => {
  let client: Client;
  let frames: Frame[];
  const notifications: JsonRpcNotification[] = [];
  const sampled: CreateMessageRequestParams[] = [];

  beforeAll(async () => {
    client = createClient({
      name: 'mcpkit-interop',
      version: '0.0.0',
      era,
      logLevel: 'info',
      onNotification: (n) => notifications.push(n),
      handlers: {
        sampling: async (params) => {
          sampled.push(params as CreateMessageRequestParams);
          return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'fake-model' };
        },
        elicitation: async () => ({
          action: 'accept',
          content: { username: 'ada', email: 'ada@example.com' },
        }),
        roots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
      },
    });
    const transport = tap(spawnStdio({ command: process.execPath, args: [OUR_EVERYTHING] }));
    frames = transport.frames;
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    if (frames) expect(wireViolations(frames, version, ['in', 'out'])).toEqual([]);
  });

  it(`speaks the ${expected} era at ${version}`, async () => {
    expect(client.era).toBe(expected);
    expect(client.protocolVersion).toBe(version);
    if (expected === 'modern') {
      const discovered = await client.discover();
      expect(discovered.supportedVersions).toContain('2026-07-28');
    }
    expect(client.serverInfo).toMatchObject({ name: 'mcpkit-everything', version: '0.1.0' });
    expect(client.serverCapabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it('sends every request of the session with the era’s framing', () => {
    const out = frames.filter((f) => f.direction === 'out' && typeof f.message.method === 'string');
    const initialize = out.filter((f) => f.message.method === 'initialize');
    expect(initialize).toHaveLength(expected === 'legacy' ? 1 : 0);
    if (expected === 'modern') {
      const meta = (out[0]?.message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      expect(meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    }
  });

  it('lists tools, resources, templates and prompts', async () => {
    const tools = (await client.listTools()).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['echo', 'test_simple_text', 'test_tool_with_progress']));
    const resources = (await client.listResources()).map((r) => r.uri).sort();
    expect(resources).toEqual(['test://static-binary', 'test://static-text', 'test://watched-resource']);
    const templates = (await client.listResourceTemplates()).map((t) => t.uriTemplate);
    expect(templates).toEqual(['test://template/{id}/data', 'skill://{+path}']);
    const prompts = (await client.listPrompts()).map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['test_simple_prompt', 'test_prompt_with_arguments']));
  });

  it('calls tools and gets text, media and error results', async () => {
    expect(onlyText(await client.callTool('echo', { text: 'round trip ✓' }))).toBe('round trip ✓');
    expect(onlyText(await client.callTool('test_simple_text'))).toBe(
      'This is a simple text response for testing.',
    );
    const image = await client.callTool('test_image_content');
    expect(image.content).toEqual([{ type: 'image', mimeType: 'image/png', data: expect.any(String) }]);
    const failed = await client.callTool('test_error_handling');
    expect(failed.isError).toBe(true);
  });

  it('rejects a call with invalid arguments as a wire error or a tool error', async () => {
    const outcome = await client
      .callTool('echo', { text: 42 })
      .then((result) => ({ isError: result.isError }))
      .catch((error: unknown) => ({ error }));
    if ('error' in outcome) expect(outcome.error).toBeInstanceOf(WireError);
    else expect(outcome.isError).toBe(true);
  });

  it('reads a static resource, a binary resource and a template instance', async () => {
    const text = await client.readResource('test://static-text');
    expect(text.contents).toEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]);
    const binary = await client.readResource('test://static-binary');
    expect(binary.contents[0]).toMatchObject({ uri: 'test://static-binary', mimeType: 'image/png' });
    const templated = await client.readResource('test://template/123/data');
    expect(templated.contents).toEqual([
      {
        uri: 'test://template/123/data',
        mimeType: 'application/json',
        text: JSON.stringify({ id: '123', templateTest: true, data: 'Data for ID: 123' }),
      },
    ]);
  });

  it('rejects reading an unknown resource with a wire error', async () => {
    const read = client.readResource('test://nowhere');
    await expect(read).rejects.toBeInstanceOf(WireError);
    await expect(read).rejects.toMatchObject({ code: expected === 'legacy' ? -32002 : -32602 });
  });

  it('gets prompts with and without arguments, and completes an argument', async () => {
    const simple = await client.getPrompt('test_simple_prompt');
    expect(simple.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const withArgs = await client.getPrompt('test_prompt_with_arguments', { arg1: 'one', arg2: 'two' });
    expect(withArgs.messages[0]?.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='one', arg2='two'",
    });
    const completion = await client.complete(
      { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      { name: 'arg1', value: 'pa' },
    );
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('delivers every progress notification to onprogress, in order, before the result', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool('test_tool_with_progress', undefined, {
      onprogress: ({ progress: p, total, message }) =>
        progress.push({
          progress: p,
          ...(total === undefined ? {} : { total }),
          ...(message ? { message } : {}),
        }),
    });
    expect(onlyText(result)).toBe('Progress test completed');
    expect(progress).toEqual([
      { progress: 0, total: 100, message: 'Completed step 1 of 3' },
      { progress: 50, total: 100, message: 'Completed step 2 of 3' },
      { progress: 100, total: 100, message: 'Completed step 3 of 3' },
    ]);
  });

  it('cancels a running tool through AbortSignal: rejects with ABORTED, tells the server, gets no answer', async () => {
    const controller = new AbortController();
    const call = client.callTool('test_tool_with_progress', undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toMatchObject({ name: 'LocalError', code: 'ABORTED' });
    const request = frames.findLast(
      (f) => f.direction === 'out' && f.message.method === 'tools/call',
    )?.message;
    const cancelled = frames.filter(
      (f) => f.direction === 'out' && f.message.method === 'notifications/cancelled',
    );
    expect(cancelled.map((f) => (f.message.params as { requestId?: unknown }).requestId)).toEqual([
      request?.id,
    ]);
    // The server reads the echo after the cancellation, so its answer comes after anything the
    // cancelled call could still have sent: a barrier, not a timed wait.
    expect(onlyText(await client.callTool('echo', { text: 'still connected' }))).toBe('still connected');
    const answered = frames.filter((f) => f.direction === 'in' && f.message.id === request?.id);
    expect(answered).toEqual([]);
  });

  it('receives the log messages of a tool at the configured level', async () => {
    const before = notifications.length;
    await client.callTool('test_tool_with_logging');
    const logs = notifications.slice(before).filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => n.params)).toEqual([
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution started' },
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool processing data' },
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution completed' },
    ]);
  });

  it('answers sampling, elicitation and roots through its handlers (server requests on legacy, input_required on modern)', async () => {
    expect(onlyText(await client.callTool('test_sampling', { prompt: 'Capital of France?' }))).toBe(
      'LLM response: Paris',
    );
    expect(sampled.at(-1)?.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Capital of France?' } },
    ]);
    expect(onlyText(await client.callTool('test_elicitation', { message: 'Who?' }))).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    );
    expect(onlyText(await client.callTool('test_input_required_result_list_roots'))).toBe(
      'Client roots: file:///work',
    );
  });

  if (expected === 'legacy') {
    it('answers ping', async () => {
      await expect(client.ping()).resolves.toBeUndefined();
    });
  } else {
    it('refuses legacy-only methods on a modern server', async () => {
      await expect(client.ping()).rejects.toMatchObject({ code: 'UNSUPPORTED_ERA' });
      await expect(client.setLoggingLevel('debug')).rejects.toMatchObject({ code: 'UNSUPPORTED_ERA' });
    });
  }
});
