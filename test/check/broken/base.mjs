/**
 * A small, correct server written with the official SDK v1's low-level `Server` (not with
 * mcpkit), which each broken server in this folder changes in exactly one way. Run as is,
 * `mcpkit check --era legacy --call echo='{"text":"hi"}'` finds nothing in it.
 */
import process from 'node:process';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The healthy tool set: `echo`, with a required string argument. */
export const ECHO = {
  name: 'echo',
  description: 'Echoes its text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/**
 * tools/call with a permissive request schema: the SDK's own check of the params then
 * answers malformed params with -32602 (its default parse would answer -32603).
 */
export const CALL_TOOL = z.object({ method: z.literal('tools/call'), params: z.unknown() }).passthrough();

/** The healthy call handler: echo's text, isError for bad arguments, -32602 for an unknown tool. */
export function callEcho(request) {
  const { name, arguments: args } = request.params;
  if (name !== 'echo') throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  if (typeof args?.text !== 'string')
    return { content: [{ type: 'text', text: 'echo needs a string `text`' }], isError: true };
  return { content: [{ type: 'text', text: args.text }] };
}

/** A server with the healthy handlers; `change` applies the one defect before it connects. */
export async function serve(change = () => undefined) {
  const server = new Server({ name: 'broken-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO] }));
  server.setRequestHandler(CALL_TOOL, callEcho);
  change(server);
  await server.connect(new StdioServerTransport());
}

if (import.meta.url === `file://${process.argv[1]}`) await serve();
