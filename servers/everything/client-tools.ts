/**
 * Tools that need the client: sampling, elicitation, roots. Handlers are written
 * straight-line with `ctx.sample` / `ctx.elicit` / `ctx.listRoots`; on a legacy session
 * these are server-initiated requests, on the modern wire the SDK answers
 * `input_required` (DESIGN.md decision 6).
 */
import { z } from 'zod';
import type { McpServer, RequestContext } from '../../src/server/index.js';
import type { CreateMessageResult, ElicitRequestFormParams, ElicitResult } from '../../src/core/index.js';

type FormSchema = ElicitRequestFormParams['requestedSchema'];

/** The elicitation schema with defaults on every field (SEP-1034). */
export const DEFAULTS_SCHEMA: FormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'John Doe' },
    age: { type: 'integer', title: 'Age', default: 30 },
    score: { type: 'number', title: 'Score', default: 95.5 },
    status: { type: 'string', title: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', title: 'Verified', default: true },
  },
};

const TITLED = [
  { const: 'value1', title: 'First Choice' },
  { const: 'value2', title: 'Second Choice' },
  { const: 'value3', title: 'Third Choice' },
];
const PLAIN = ['option1', 'option2', 'option3'];

/** The elicitation schema with every enum form (SEP-1330). */
export const ENUMS_SCHEMA: FormSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', title: 'Untitled single-select', enum: PLAIN },
    titledSingle: { type: 'string', title: 'Titled single-select', oneOf: TITLED },
    legacyEnum: {
      type: 'string',
      title: 'Legacy titled enum',
      // The values the conformance client answers with (`opt1`); accepted answers are
      // checked against this schema on both eras.
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', title: 'Untitled multi-select', items: { type: 'string', enum: PLAIN } },
    titledMulti: { type: 'array', title: 'Titled multi-select', items: { anyOf: TITLED } },
  },
};

/** The text of a sampled message (first text block), or a placeholder. */
export function sampledText(result: CreateMessageResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const text = blocks.find((b) => b.type === 'text');
  return text && text.type === 'text' ? text.text : '(no text content)';
}

/** Describes an elicitation answer for the model. */
function describeElicit(result: ElicitResult): string {
  return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** Asks the client's model with one user message. */
export function ask(ctx: RequestContext, prompt: string, maxTokens = 100): Promise<CreateMessageResult> {
  return ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens });
}

/** Registers sampling, elicitation and the capability diagnostics. */
export function registerClientTools(server: McpServer): void {
  server.tool(
    'test_sampling',
    {
      title: 'Sampling',
      description: "Asks the client's model to answer the prompt and returns its answer.",
      inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the model') }),
    },
    async ({ prompt }, ctx) => `LLM response: ${sampledText(await ask(ctx, prompt))}`,
  );
  server.tool(
    'test_elicitation',
    {
      title: 'Elicitation',
      description: 'Asks the user for input with the given message and returns the answer.',
      inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
    },
    async ({ message }, ctx) => {
      const requestedSchema: FormSchema = {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address", format: 'email' },
        },
        required: ['username', 'email'],
      };
      return describeElicit(await ctx.elicit({ message, requestedSchema }));
    },
  );
  server.tool(
    'test_elicitation_sep1034_defaults',
    { title: 'Elicitation defaults', description: 'Elicits a form whose every field has a default.' },
    async (_args, ctx) =>
      describeElicit(
        await ctx.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: DEFAULTS_SCHEMA,
        }),
      ),
  );
  server.tool(
    'test_elicitation_sep1330_enums',
    { title: 'Elicitation enums', description: 'Elicits a form with every kind of enum field.' },
    async (_args, ctx) =>
      describeElicit(
        await ctx.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: ENUMS_SCHEMA,
        }),
      ),
  );
  server.tool(
    'test_missing_capability',
    {
      title: 'Needs sampling',
      description: "Needs the client's sampling capability; without it the call fails with -32021.",
    },
    async (_args, ctx) => `LLM response: ${sampledText(await ask(ctx, 'Say hello.', 20))}`,
  );
  server.tool(
    'test_streaming_elicitation',
    {
      title: 'Streaming elicitation',
      description:
        'Reports progress, then asks for confirmation; never sends a request on the response stream.',
    },
    async (_args, ctx) => {
      ctx.progress(50, { total: 100 });
      const result = await ctx.elicit({
        message: 'Confirm to continue',
        requestedSchema: {
          type: 'object',
          properties: { ok: { type: 'boolean', title: 'OK' } },
          required: ['ok'],
        },
      });
      return `Streaming elicitation finished: ${describeElicit(result)}`;
    },
  );
}
