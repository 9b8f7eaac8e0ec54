import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Params } from '../../src/core/jsonrpc.js';
import type { RequestOptions } from '../../src/core/peer.js';
import type { WireRevision } from '../../src/testing/index.js';
import { JSON_SCHEMA_2020_12 } from './content-tools.js';
import { STATIC_TEXT } from './resources.js';
import { createEverythingServer } from './server.js';
import {
  errorOf,
  modernRequest,
  onlyContent,
  openHarness,
  openLegacy,
  type Harness,
} from '../../test/support/everything.js';

/** How one wire opens a connection and sends a request. */
interface Wire {
  name: 'modern' | 'legacy';
  revision: WireRevision;
  open(): Promise<Harness>;
  send(h: Harness, method: string, params?: Params, options?: RequestOptions): Promise<Params>;
}

const WIRES: Wire[] = [
  {
    name: 'modern',
    revision: '2026-07-28',
    open: () => openHarness(createEverythingServer(), '2026-07-28'),
    send: (h, method, params, options) => modernRequest(h, method, params, options),
  },
  {
    name: 'legacy',
    revision: '2025-11-25',
    open: () => openLegacy(createEverythingServer()),
    send: (h, method, params = {}, options) => h.peer.request(method, params, options),
  },
];

const TOOLS = [
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_custom_headers',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_progress',
  'json_schema_2020_12_tool',
  'test_tool_with_logging',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_reconnection',
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'echo',
];

describe.each(WIRES)('everything server on the $name wire', (wire) => {
  let h: Harness;
  const call = (name: string, args?: Params, options?: RequestOptions): Promise<Params> =>
    wire.send(h, 'tools/call', args === undefined ? { name } : { name, arguments: args }, options);

  beforeEach(async () => {
    h = await wire.open();
  });
  afterEach(async () => {
    await h.close();
    expect(h.frames.length).toBeGreaterThan(0);
    expect(h.violations).toEqual([]);
  });

  it('lists every fixture tool with a valid name, a description and an object input schema', async () => {
    const { tools } = (await wire.send(h, 'tools/list')) as { tools: Record<string, unknown>[] };
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_./-]{1,64}$/);
      expect(typeof tool.description).toBe('string');
      expect((tool.inputSchema as { type: string }).type).toBe('object');
    }
  });

  it('returns the JSON Schema 2020-12 input schema untouched', async () => {
    const { tools } = (await wire.send(h, 'tools/list')) as { tools: Record<string, unknown>[] };
    expect(tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual(
      JSON_SCHEMA_2020_12,
    );
  });

  it('answers test_simple_text called without arguments with the fixture text', async () => {
    const result = await call('test_simple_text');
    expect(onlyContent(result)).toEqual({
      type: 'text',
      text: 'This is a simple text response for testing.',
    });
  });

  it('returns a real PNG image and a real WAV audio clip', async () => {
    const image = onlyContent(await call('test_image_content', {}));
    expect(image.mimeType).toBe('image/png');
    expect(
      Buffer.from(image.data as string, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const audio = onlyContent(await call('test_audio_content', {}));
    expect(audio).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    expect(
      Buffer.from(audio.data as string, 'base64')
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
  });

  it('embeds resources in tool results', async () => {
    const embedded = onlyContent(await call('test_embedded_resource', {}));
    expect(embedded).toMatchObject({
      type: 'resource',
      resource: { uri: 'test://embedded-resource', mimeType: 'text/plain' },
    });
    const mixed = (await call('test_multiple_content_types', {})).content as { type: string }[];
    expect(mixed.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
  });

  it('reports a tool error as a result with isError, not a JSON-RPC error', async () => {
    const result = await call('test_error_handling', {});
    expect(result.isError).toBe(true);
    expect(onlyContent(result).type).toBe('text');
  });

  it('sends progress 0, 50 and 100 of 100 with the request token, then text', async () => {
    const updates: number[] = [];
    const result = await call('test_tool_with_progress', {}, { onprogress: (u) => updates.push(u.progress) });
    expect(updates).toEqual([0, 50, 100]);
    const tokens = h.notifications.filter((n) => n.method === 'notifications/progress');
    expect(tokens.every((n) => n.params?.total === 100)).toBe(true);
    expect(onlyContent(result).type).toBe('text');
  });

  it('echoes text and validates arguments', async () => {
    expect(onlyContent(await call('echo', { text: 'hi there' }))).toEqual({ type: 'text', text: 'hi there' });
    expect((await call('echo', { text: 42 })).isError).toBe(true);
  });

  it('accepts valid arguments for the 2020-12 tool and refuses extra properties', async () => {
    const ok = { name: 'A', contactMethod: 'email', email: 'a@example.com' };
    expect((await call('json_schema_2020_12_tool', ok)).isError).toBeUndefined();
    expect((await call('json_schema_2020_12_tool', { ...ok, extra: 1 })).isError).toBe(true);
  });

  it('answers the trigger and reconnection tools with text', async () => {
    for (const name of ['test_trigger_tool_change', 'test_trigger_prompt_change', 'test_reconnection'])
      expect(onlyContent(await call(name, {})).type).toBe('text');
  });

  it('lists and reads the resources and the template', async () => {
    const { resources } = (await wire.send(h, 'resources/list')) as { resources: { uri: string }[] };
    expect(resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    const templates = await wire.send(h, 'resources/templates/list');
    expect(templates.resourceTemplates).toMatchObject([
      { uriTemplate: 'test://template/{id}/data' },
      { uriTemplate: 'skill://{+path}' },
    ]);
    const text = await wire.send(h, 'resources/read', { uri: 'test://static-text' });
    expect(text.contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT }]);
    const binary = await wire.send(h, 'resources/read', { uri: 'test://static-binary' });
    expect(binary.contents).toMatchObject([{ mimeType: 'image/png', blob: expect.any(String) }]);
    const templated = (await wire.send(h, 'resources/read', { uri: 'test://template/123/data' })) as {
      contents: { uri: string; text: string }[];
    };
    expect(templated.contents[0]?.uri).toBe('test://template/123/data');
    expect(JSON.parse(templated.contents[0]?.text ?? '')).toMatchObject({ id: '123' });
  });

  it('answers an unknown resource with the not-found error carrying the uri', async () => {
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    const error = await errorOf(wire.send(h, 'resources/read', { uri }));
    expect(error.code).toBe(wire.name === 'modern' ? -32602 : -32002);
    expect(error.data).toEqual({ uri });
  });

  it('lists and renders every prompt', async () => {
    const { prompts } = (await wire.send(h, 'prompts/list')) as { prompts: Record<string, unknown>[] };
    expect(prompts.every((p) => typeof p.name === 'string' && typeof p.description === 'string')).toBe(true);
    const simple = await wire.send(h, 'prompts/get', { name: 'test_simple_prompt' });
    expect(simple.messages).toMatchObject([{ role: 'user', content: { type: 'text' } }]);
    const withArgs = await wire.send(h, 'prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'testValue1', arg2: 'testValue2' },
    });
    expect(JSON.stringify(withArgs.messages)).toMatch(/testValue1[\s\S]*testValue2/);
    const embedded = await wire.send(h, 'prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://static-text' },
    });
    expect(embedded.messages).toMatchObject([
      { content: { type: 'resource', resource: { uri: 'test://static-text' } } },
      { content: { type: 'text' } },
    ]);
    const image = await wire.send(h, 'prompts/get', { name: 'test_prompt_with_image' });
    expect(image.messages).toMatchObject([{ content: { type: 'image', mimeType: 'image/png' } }, {}]);
  });

  it('refuses test_prompt_with_arguments without its required arguments', async () => {
    const error = await errorOf(wire.send(h, 'prompts/get', { name: 'test_prompt_with_arguments' }));
    expect(error.code).toBe(-32602);
  });

  it('completes arg1 of test_prompt_with_arguments', async () => {
    const result = await wire.send(h, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(result.completion).toMatchObject({ values: ['paris', 'park', 'party'] });
  });
});
