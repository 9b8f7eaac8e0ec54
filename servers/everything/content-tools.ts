/**
 * Tools that need nothing from the client: content types, errors, progress, logging,
 * list-change triggers, the JSON Schema 2020-12 fixture and `echo`.
 * Names and texts follow the official conformance fixtures (scripts/conformance/README.md).
 */
import { z } from 'zod';
import { type McpServer, errorResult } from '../../src/server/index.js';
import { PNG_BASE64, PNG_DATA_URI, WAV_BASE64, sleep } from './media.js';

/** Milliseconds between the steps of the progress and logging tools. */
const STEP_MS = 50;

/** The input schema of `json_schema_2020_12_tool`, served exactly as written. */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'address',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      required: ['street', 'city'],
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Registers the content-type tools. */
export function registerContentTools(server: McpServer): void {
  server.tool(
    'test_simple_text',
    { title: 'Simple text', description: 'Returns one text item.', annotations: READ_ONLY },
    () => 'This is a simple text response for testing.',
  );
  server.tool(
    'test_image_content',
    {
      title: 'Image content',
      description: 'Returns one 1×1 PNG image item.',
      annotations: READ_ONLY,
      icons: [{ src: PNG_DATA_URI, mimeType: 'image/png', sizes: ['1x1'] }],
    },
    () => ({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  );
  server.tool(
    'test_audio_content',
    { title: 'Audio content', description: 'Returns one short WAV audio item.', annotations: READ_ONLY },
    () => ({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  );
  server.tool(
    'test_embedded_resource',
    {
      title: 'Embedded resource',
      description: 'Returns one embedded text resource.',
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );
  server.tool(
    'test_multiple_content_types',
    {
      title: 'Multiple content types',
      description: 'Returns a text, an image and an embedded JSON resource.',
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.tool(
    'test_error_handling',
    { title: 'Error handling', description: 'Returns a tool result with isError: true.' },
    () => errorResult('This tool intentionally returns an error for testing'),
  );
}

/** Registers the tools that report progress or log, and the list-change triggers. */
export function registerActivityTools(server: McpServer): void {
  server.tool(
    'test_tool_with_progress',
    { title: 'Progress', description: 'Reports progress 0, 50 and 100 of 100, then returns text.' },
    async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await sleep(STEP_MS, ctx.signal);
        ctx.progress(progress, { total: 100, message: `Completed step ${progress / 50 + 1} of 3` });
      }
      return 'Progress test completed';
    },
  );
  server.tool(
    'test_tool_with_logging',
    { title: 'Logging', description: 'Sends three info log messages while running.' },
    async (_args, ctx) => {
      const steps = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
      for (const [i, step] of steps.entries()) {
        if (i > 0) await sleep(STEP_MS, ctx.signal);
        ctx.log('info', step, 'test_tool_with_logging');
      }
      return 'Logging test completed';
    },
  );
  server.tool(
    'test_logging_tool',
    { title: 'Log if allowed', description: 'Logs one message; only sent when the request set a log level.' },
    (_args, ctx) => {
      ctx.log('info', 'test_logging_tool ran', 'test_logging_tool');
      return 'Logging attempted';
    },
  );
  server.tool(
    'test_trigger_tool_change',
    { title: 'Announce tool change', description: 'Announces that the tool list changed.' },
    () => {
      server.notifyToolsChanged();
      return 'Tool list change announced';
    },
  );
  server.tool(
    'test_trigger_prompt_change',
    { title: 'Announce prompt change', description: 'Announces that the prompt list changed.' },
    () => {
      server.notifyPromptsChanged();
      return 'Prompt list change announced';
    },
  );
  server.tool(
    'test_reconnection',
    { title: 'Reconnection', description: 'Returns text after a short delay (SSE resumption test).' },
    async (_args, ctx) => {
      await sleep(STEP_MS, ctx.signal);
      return 'Reconnection test completed successfully.';
    },
  );
}

/** Registers `json_schema_2020_12_tool`, `echo` and `test_custom_headers`. */
export function registerSchemaTools(server: McpServer): void {
  server.tool(
    'json_schema_2020_12_tool',
    {
      title: 'JSON Schema 2020-12',
      description: 'Takes arguments described by a JSON Schema 2020-12 document ($defs, $ref, if/then/else).',
      inputSchema: JSON_SCHEMA_2020_12,
    },
    (args) => `Received: ${JSON.stringify(args)}`,
  );
  server.tool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the given text unchanged.',
      inputSchema: z.object({ text: z.string().describe('Text to echo back') }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ text }) => text,
  );
  server.tool(
    'test_custom_headers',
    {
      title: 'Custom headers',
      description: 'Echoes a region and a priority that HTTP clients mirror into Mcp-Param-* headers.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Region to route to', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', description: 'Priority', 'x-mcp-header': 'Priority' },
        },
        required: ['region'],
      },
    },
    (args) => `region=${String(args.region)} priority=${String(args.priority ?? 'none')}`,
  );
}
