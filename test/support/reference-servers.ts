/**
 * Support for the differential tests of mcpkit's reference servers (servers/NAME): the
 * official npm server and ours, each a child process over stdio, driven by mcpkit's client
 * (legacy for the official one, either era for ours), and the normalising of what must
 * differ between two runs (temp paths, timestamps).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client, type ClientHandlers } from '../../src/client/index.js';
import type { Era } from '../../src/core/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The JS entry (its package.json `bin`) of an official server installed as a dev dependency. */
export function officialEntry(pkg: string): string {
  const require = createRequire(join(ROOT, 'package.json'));
  const manifestPath = require.resolve(`@modelcontextprotocol/${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifestPath), typeof bin === 'string' ? bin : (Object.values(bin)[0] as string));
}

/** The built stdio entry of our reference server `name` (dist/servers/NAME/main.js). */
export function ourEntry(name: string): string {
  return join(ROOT, 'dist', 'servers', name, 'main.js');
}

/** How to start one server under test. */
interface Started {
  entry: string;
  args?: readonly string[];
  env?: Record<string, string>;
  era: Era;
  handlers?: ClientHandlers;
}

/** A connected client of a server spawned as `node ENTRY ARGS…` over stdio. */
export async function startServer(options: Started): Promise<Client> {
  const client = createClient({
    name: 'differential',
    version: '0.0.0',
    era: options.era,
    ...(options.handlers ? { handlers: options.handlers } : {}),
  });
  await client.connect(
    spawnStdio({
      command: process.execPath,
      args: [options.entry, ...(options.args ?? [])],
      env: { ...process.env, ...options.env } as Record<string, string>,
      stderr: 'pipe',
      shutdownTimeoutMs: 500,
    }),
  );
  return client;
}

/**
 * A JSON copy of `value` with each `replace` key (a temp path…) replaced by its value in every
 * string, and dates (`Mon Dec 07 2026 11:09:39 GMT+0000 (…)`, ISO) replaced by `<date>`.
 */
export function normalise(value: unknown, replace: Record<string, string> = {}): unknown {
  let text = JSON.stringify(value);
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  text = text
    .replace(/[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \([^)]*\)/g, '<date>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<date>');
  return JSON.parse(text) as unknown;
}

/**
 * A tools/list entry without what the official SDK adds on its own and that says nothing a
 * client acts on: `execution: { taskSupport: 'forbidden' }` (the default when absent).
 */
export function comparableTool(tool: Record<string, unknown>): Record<string, unknown> {
  const { execution, ...rest } = tool;
  const forbidden = (execution as { taskSupport?: string } | undefined)?.taskSupport === 'forbidden';
  return execution === undefined || forbidden ? rest : tool;
}

/**
 * An answer reduced to what two servers must agree on: for a schema-invalid call only that it
 * failed (the validators' messages differ: zod's against ajv's), else the whole result.
 */
export function comparableAnswer(answer: unknown, schemaInvalid: boolean): unknown {
  const record = answer as { isError?: boolean; error?: unknown };
  if (schemaInvalid) return { failed: record.isError === true || record.error !== undefined };
  return withoutEraFraming(answer);
}

/**
 * A result without what the modern era adds to every result (`resultType`, and the server's
 * identity in `_meta`): the same answer on either era compares equal.
 */
export function withoutEraFraming(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null) return answer;
  const { resultType, _meta, ...rest } = answer as Record<string, unknown>;
  void resultType;
  const meta = Object.entries((_meta ?? {}) as Record<string, unknown>).filter(
    ([key]) => key !== 'io.modelcontextprotocol/serverInfo',
  );
  return meta.length > 0 ? { ...rest, _meta: Object.fromEntries(meta) } : rest;
}

/** Calls a tool and returns its result, or the error it was refused with (as `{ error: code }`). */
export async function settle(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  try {
    return await client.callTool(name, args);
  } catch (error) {
    return { error: (error as { code?: unknown }).code ?? String(error) };
  }
}
