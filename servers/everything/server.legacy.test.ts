import { afterEach, describe, expect, it } from 'vitest';
import type { Params } from '../../src/core/jsonrpc.js';
import type { McpServer } from '../../src/server/index.js';
import { DEFAULTS_SCHEMA, ENUMS_SCHEMA } from './client-tools.js';
import { createEverythingServer, EVERYTHING_NAME } from './server.js';
import { errorOf, onlyContent, openLegacy, type Harness } from '../../test/support/everything.js';

let h: (Harness & { initialized: Params }) | undefined;
let server: McpServer;

async function open(capabilities?: Record<string, unknown>): Promise<Harness & { initialized: Params }> {
  server = createEverythingServer();
  h = await openLegacy(server, capabilities);
  return h;
}

async function callText(session: Harness, name: string, args: Params = {}): Promise<string> {
  const result = await session.peer.request('tools/call', { name, arguments: args });
  expect(result.isError).toBeUndefined();
  return onlyContent(result).text as string;
}

const methods = (session: Harness, prefix: string): string[] =>
  session.notifications.map((n) => n.method).filter((m) => m.startsWith(prefix));

afterEach(async () => {
  await h?.close();
  expect(h?.violations).toEqual([]);
  h = undefined;
});

describe('everything server on a 2025-11-25 session', () => {
  it('initializes with its identity and declares subscribe, logging and completions', async () => {
    const { initialized } = await open();
    expect(initialized).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: EVERYTHING_NAME },
      capabilities: { logging: {}, completions: {}, resources: { subscribe: true }, tools: {}, prompts: {} },
    });
  });

  it('answers ping, logging/setLevel, resources/subscribe and unsubscribe with {}', async () => {
    const s = await open();
    expect(await s.peer.request('ping', undefined)).toEqual({});
    expect(await s.peer.request('logging/setLevel', { level: 'debug' })).toEqual({});
    const uri = 'test://watched-resource';
    expect(await s.peer.request('resources/subscribe', { uri })).toEqual({});
    server.notifyResourceUpdated(uri);
    expect(await s.peer.request('resources/unsubscribe', { uri })).toEqual({});
    server.notifyResourceUpdated(uri);
    await s.peer.request('ping', undefined);
    const updates = s.notifications.filter((n) => n.method === 'notifications/resources/updated');
    expect(updates.map((n) => n.params)).toEqual([{ uri }]);
  });

  it('sends three info log messages from test_tool_with_logging', async () => {
    const s = await open();
    await s.peer.request('logging/setLevel', { level: 'debug' });
    await callText(s, 'test_tool_with_logging');
    const logs = s.notifications.filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => n.params?.level)).toEqual(['info', 'info', 'info']);
  });

  it('sends no log message below the level the client set', async () => {
    const s = await open();
    await s.peer.request('logging/setLevel', { level: 'error' });
    await callText(s, 'test_tool_with_logging');
    expect(methods(s, 'notifications/message')).toEqual([]);
  });

  it("asks the client's model with the prompt as a user message and maxTokens 100", async () => {
    const s = await open();
    expect(await callText(s, 'test_sampling', { prompt: 'Capital of France?' })).toContain('Paris');
    expect(s.requests.map((r) => r.params)).toMatchObject([
      { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 },
    ]);
  });

  it('elicits with the message and an object schema and describes the answer', async () => {
    const s = await open();
    const text = await callText(s, 'test_elicitation', { message: 'Who are you?' });
    expect(text).toContain('accept');
    expect(text).toContain('alice');
    expect(s.requests[0]?.params).toMatchObject({
      message: 'Who are you?',
      requestedSchema: { type: 'object' },
    });
  });

  it('elicits the SEP-1034 defaults and SEP-1330 enum schemas exactly', async () => {
    const s = await open();
    await callText(s, 'test_elicitation_sep1034_defaults');
    await callText(s, 'test_elicitation_sep1330_enums');
    expect(s.requests.map((r) => r.params?.requestedSchema)).toEqual([DEFAULTS_SCHEMA, ENUMS_SCHEMA]);
  });

  it('runs test_missing_capability when sampling is declared and refuses with -32600 (no -32021 before 2026-07-28) otherwise', async () => {
    expect(await callText(await open(), 'test_missing_capability')).toContain('Paris');
    await h?.close();
    const bare = await open({});
    const error = await errorOf(bare.peer.request('tools/call', { name: 'test_missing_capability' }));
    expect(error).toMatchObject({ code: -32600, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('announces tool and prompt list changes from the trigger tools', async () => {
    const s = await open();
    await callText(s, 'test_trigger_tool_change');
    await callText(s, 'test_trigger_prompt_change');
    expect(methods(s, 'notifications/')).toEqual([
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
    ]);
  });

  it('serves the input-required fixtures with server-initiated requests', async () => {
    const s = await open();
    expect(await callText(s, 'test_input_required_result_elicitation')).toBe('Hello, Alice!');
    expect(await callText(s, 'test_input_required_result_sampling')).toContain('Paris');
    expect(await callText(s, 'test_input_required_result_list_roots')).toContain('file:///home/alice');
    expect(await callText(s, 'test_input_required_result_request_state')).toContain('state-ok');
    expect(await callText(s, 'test_input_required_result_tampered_state')).toContain('accept');
    const multiple = await callText(s, 'test_input_required_result_multiple_inputs');
    expect(multiple).toMatch(/Alice.*Paris.*file:\/\/\/home\/alice/);
    expect(await callText(s, 'test_input_required_result_multi_round')).toContain('name=Alice');
    expect(await callText(s, 'test_input_required_result_capabilities')).toContain('Alice');
    expect(await callText(s, 'test_streaming_elicitation')).toContain('accept');
  });

  it('asks for context before rendering test_input_required_result_prompt', async () => {
    const s = await open();
    const result = await s.peer.request('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(s.requests.map((r) => r.method)).toEqual(['elicitation/create']);
    expect(result.messages).toMatchObject([{ role: 'user', content: { type: 'text' } }]);
  });
});
