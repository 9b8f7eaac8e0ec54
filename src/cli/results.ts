/**
 * `mcpkit call`, `read` and `prompt`: one request each, its result rendered as text (or
 * raw JSON with `--json`). Progress from the server is written to stderr as it arrives.
 */
import type { Client, ProgressUpdate } from '../client/index.js';
import type { ContentBlock } from '../core/index.js';
import { compactJson, renderContent, renderResourceContents } from './render.js';

/** What a command prints, and whether it failed (exit code 1). */
export interface Output {
  text: string;
  failed: boolean;
}

function writeProgress(update: ProgressUpdate): void {
  const of = update.total === undefined ? '' : `/${update.total}`;
  const message = update.message ? ` ${update.message}` : '';
  process.stderr.write(`progress ${update.progress}${of}${message}\n`);
}

/** Calls `tool`; a result with `isError: true` is printed and marked failed. */
export async function callTool(
  client: Client,
  request: { tool: string; args: Record<string, unknown>; json: boolean; signal: AbortSignal },
): Promise<Output> {
  const result = await client.callTool(request.tool, request.args, {
    signal: request.signal,
    onprogress: writeProgress,
  });
  const failed = result.isError === true;
  if (request.json) return { text: JSON.stringify(result, null, 2), failed };
  const blocks = (result.content as ContentBlock[]).map(renderContent);
  const hasStructured = result.structuredContent !== undefined;
  if (hasStructured && blocks.length === 0) blocks.push(compactJson(result.structuredContent));
  const text = blocks.join('\n');
  return { text: failed ? `tool \`${request.tool}\` reported an error: ${text}` : text, failed };
}

/** Reads `uri`: every content item, text as is, blobs summarised. */
export async function readResource(
  client: Client,
  request: { uri: string; json: boolean; signal: AbortSignal },
): Promise<Output> {
  const result = await client.readResource(request.uri, { signal: request.signal });
  if (request.json) return { text: JSON.stringify(result, null, 2), failed: false };
  return { text: result.contents.map(renderResourceContents).join('\n'), failed: false };
}

/** Gets prompt `name`: its description, then each message as `role: content`. */
export async function getPrompt(
  client: Client,
  request: { prompt: string; args: Record<string, string>; json: boolean; signal: AbortSignal },
): Promise<Output> {
  const result = await client.getPrompt(request.prompt, request.args, { signal: request.signal });
  if (request.json) return { text: JSON.stringify(result, null, 2), failed: false };
  const lines = result.messages.map((m) => `${m.role}: ${renderContent(m.content as ContentBlock)}`);
  if (result.description) lines.unshift(`(${result.description})`);
  return { text: lines.join('\n'), failed: false };
}
