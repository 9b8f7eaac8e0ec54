/**
 * What our everything server must answer, shared by the tests that drive it with the
 * official v1 and v2 clients: one expectation per tool that needs no client input, per
 * prompt and per resource, plus canned answers for the client-side handlers.
 */
import { expect } from 'vitest';
import { onlyText, OUR_EVERYTHING } from './helpers.js';

/** A tool result as both official clients return it, loosely typed. */
export interface ToolResult {
  content?: unknown;
  isError?: boolean | undefined;
  structuredContent?: unknown;
}

type Item = { type: string; mimeType?: string; data?: string; resource?: { uri?: string; text?: string } };
const items = (result: ToolResult): Item[] =>
  Array.isArray(result.content) ? (result.content as Item[]) : [];

/** Every tool of our server that needs nothing from the client, its arguments and what it must return. */
export const NO_INPUT_TOOLS: {
  name: string;
  args: Record<string, unknown>;
  check: (result: ToolResult) => void;
}[] = [
  { name: 'greet', args: { name: 'Ada' }, check: (r) => expect(onlyText(r)).toBe('Hello, Ada!') },
  {
    name: 'slow_compute',
    args: { seconds: 0, label: 'now' },
    check: (r) => expect(onlyText(r)).toBe('Computed now after 0s'),
  },
  {
    name: 'test_simple_text',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('This is a simple text response for testing.'),
  },
  {
    name: 'test_image_content',
    args: {},
    check: (r) => {
      expect(items(r)).toEqual([{ type: 'image', mimeType: 'image/png', data: expect.any(String) }]);
      expect(
        Buffer.from(items(r)[0]?.data ?? '', 'base64')
          .subarray(1, 4)
          .toString('latin1'),
      ).toBe('PNG');
    },
  },
  {
    name: 'test_audio_content',
    args: {},
    check: (r) => {
      expect(items(r)).toEqual([{ type: 'audio', mimeType: 'audio/wav', data: expect.any(String) }]);
      expect(
        Buffer.from(items(r)[0]?.data ?? '', 'base64')
          .subarray(0, 4)
          .toString('latin1'),
      ).toBe('RIFF');
    },
  },
  {
    name: 'test_embedded_resource',
    args: {},
    check: (r) =>
      expect(items(r)).toEqual([
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ]),
  },
  {
    name: 'test_multiple_content_types',
    args: {},
    check: (r) => {
      expect(items(r).map((i) => i.type)).toEqual(['text', 'image', 'resource']);
      expect(items(r)[2]?.resource?.uri).toBe('test://mixed-content-resource');
      expect(JSON.parse(items(r)[2]?.resource?.text ?? '')).toEqual({ test: 'data', value: 123 });
    },
  },
  {
    name: 'test_error_handling',
    args: {},
    check: (r) => {
      expect(r.isError).toBe(true);
      expect(onlyText(r)).toBe('This tool intentionally returns an error for testing');
    },
  },
  {
    name: 'test_tool_with_progress',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('Progress test completed'),
  },
  {
    name: 'test_tool_with_logging',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('Logging test completed'),
  },
  { name: 'test_logging_tool', args: {}, check: (r) => expect(onlyText(r)).toBe('Logging attempted') },
  {
    name: 'test_trigger_tool_change',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('Tool list change announced'),
  },
  {
    name: 'test_trigger_prompt_change',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('Prompt list change announced'),
  },
  {
    name: 'test_reconnection',
    args: {},
    check: (r) => expect(onlyText(r)).toBe('Reconnection test completed successfully.'),
  },
  {
    name: 'json_schema_2020_12_tool',
    args: {
      name: 'Ada',
      address: { street: '1 Main St', city: 'London' },
      contactMethod: 'email',
      email: 'a@b.c',
    },
    check: (r) =>
      expect(onlyText(r)).toBe(
        'Received: {"name":"Ada","address":{"street":"1 Main St","city":"London"},"contactMethod":"email","email":"a@b.c"}',
      ),
  },
  {
    name: 'echo',
    args: { text: 'héllo, wörld ✓' },
    check: (r) => expect(onlyText(r)).toBe('héllo, wörld ✓'),
  },
  {
    name: 'test_custom_headers',
    args: { region: 'eu-west', priority: 2 },
    check: (r) => expect(onlyText(r)).toBe('region=eu-west priority=2'),
  },
];

/** Our server's tools that need the client (sampling, elicitation, roots). */
export const CLIENT_INPUT_TOOLS = [
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_missing_capability',
  'test_streaming_elicitation',
];

/**
 * Task fixtures whose answer depends on the era and on the tasks extension (a required
 * task gets -32021 on the modern wire without it); src/server/tasks tests drive them.
 */
export const TASK_TOOLS = [
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
];

/** True for a tool that asks the client for input, so the no-input table need not cover it. */
export const needsClient = (name: string): boolean =>
  CLIENT_INPUT_TOOLS.includes(name) ||
  TASK_TOOLS.includes(name) ||
  name.startsWith('test_input_required_result_');

/** Tools listed by the server that neither table covers: every tool must be called by these tests. */
export const uncovered = (listed: string[]): string[] =>
  listed.filter((name) => !needsClient(name) && !NO_INPUT_TOOLS.some((t) => t.name === name));

/**
 * Answers an elicitation form from its schema: a canned value for each string field by name,
 * true for booleans, so the answer always matches what the server asked for.
 */
export function answerForm(params: unknown): { action: 'accept'; content: Record<string, string | boolean> } {
  const CANNED: Record<string, string> = {
    name: 'Ada',
    username: 'ada',
    email: 'ada@example.com',
    context: 'from the official client',
  };
  const schema = (params as { requestedSchema?: { properties?: Record<string, { type?: string }> } })
    .requestedSchema;
  const content: Record<string, string | boolean> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'boolean') content[key] = true;
    else if (property.type === 'string') content[key] = CANNED[key] ?? 'green';
  }
  return { action: 'accept', content };
}

/**
 * Checks the progress the client saw and what the server sent: all of 0, 50 and 100, in
 * order, both in the client's `onprogress` and on the wire before the response. (The
 * official SDKs drop a progress notification that reaches them in the same chunk as its
 * response; our stdio transport leaves a gap between the two so that never happens.)
 */
export function checkProgress(
  seen: { progress: number; total?: number | undefined }[],
  received: Record<string, unknown>[],
): void {
  const expected = [0, 50, 100].map((progress) => ({ progress, total: 100 }));
  expect(seen.map(({ progress, total }) => ({ progress, total }))).toEqual(expected);
  const done = received.findLastIndex((m) =>
    JSON.stringify(m.result ?? null).includes('Progress test completed'),
  );
  const response = received[done];
  const token = received
    .slice(0, done)
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => m.params as { progressToken: unknown; progress: number; total?: number })
    .filter((p) => String(p.progressToken) === String(response?.id));
  expect(token.map(({ progress, total }) => ({ progress, total }))).toEqual(expected);
}

export const PROMPT_ARGS: Record<string, Record<string, string>> = {
  test_prompt_with_arguments: { arg1: 'alpha', arg2: 'beta' },
  test_prompt_with_embedded_resource: { resourceUri: 'test://static-text' },
};

/** What each prompt must render, as a check on its messages. */
export function checkPrompt(
  name: string,
  messages: { role: string; content: Item & { text?: string } }[],
): void {
  switch (name) {
    case 'test_simple_prompt':
      return expect(messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ]);
    case 'test_prompt_with_arguments':
      return expect(messages[0]?.content.text).toBe("Prompt with arguments: arg1='alpha', arg2='beta'");
    case 'test_prompt_with_embedded_resource':
      return expect(messages[0]?.content.resource?.uri).toBe('test://static-text');
    case 'test_prompt_with_image':
      return expect(messages.map((m) => m.content.type)).toEqual(['image', 'text']);
    case 'test_input_required_result_prompt':
      return expect(messages[0]?.content.text).toBe('Context from the user: from the official client');
    default:
      throw new Error(`no expectation for prompt ${name}; add one`);
  }
}

const RESOURCE_TEXT: Record<string, string | RegExp> = {
  'test://static-text': 'This is the content of the static text resource.',
  'test://watched-resource': 'Watched resource content',
};

/** Checks one read resource by URI. */
export function checkResource(
  uri: string,
  contents: { uri: string; mimeType?: string | undefined; text?: string; blob?: string }[],
): void {
  expect(contents).toHaveLength(1);
  const [content] = contents;
  expect(content?.uri).toBe(uri);
  if (uri === 'test://static-binary') {
    expect(content?.mimeType).toBe('image/png');
    expect(
      Buffer.from(content?.blob ?? '', 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
  } else {
    expect(content?.text).toBe(RESOURCE_TEXT[uri]);
  }
}

export const spawnOurs = { command: process.execPath, args: [OUR_EVERYTHING], stderr: 'pipe' as const };
