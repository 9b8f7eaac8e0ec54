/**
 * `mcpkit serve --openapi SPEC --base-url URL`: an OpenAPI 3.x document's operations served
 * as MCP tools, on stdio, or on Streamable HTTP with `--port`. Operations that cannot be
 * served are listed on stderr; the rest are served.
 *
 *   mcpkit serve --openapi api.yaml --base-url https://api.example.com/v1
 *       [--header 'NAME: VALUE']... [--token TOKEN | --token-env VAR] [--timeout MS]
 *       [--port N [--host HOST]]
 */
import { parseArgs } from 'node:util';
import { serveStdio } from '../integrations/stdio/index.js';
import type { OpenApiOptions } from '../openapi/index.js';
import { CliError } from './errors.js';
import { signalled } from './signals.js';

/** What `serve --openapi` was asked for. */
export interface OpenApiCommand {
  name: 'serve';
  server: 'openapi';
  spec: string;
  baseUrl: string;
  headers: Record<string, string>;
  token?: string;
  timeoutMs?: number;
  port?: number;
  host?: string;
}

/** True when a `serve` command line asks for an OpenAPI document. */
export function isOpenApiServe(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--openapi' || arg.startsWith('--openapi='));
}

/** Parses the arguments after `serve`. @throws CliError for bad usage. */
export function parseOpenApiServe(argv: readonly string[]): OpenApiCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        openapi: { type: 'string' },
        'base-url': { type: 'string' },
        header: { type: 'string', multiple: true },
        token: { type: 'string' },
        'token-env': { type: 'string' },
        timeout: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new CliError(`serve: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit serve --help\``);
  }
  const { openapi: spec, 'base-url': baseUrl } = values;
  if (!spec || !baseUrl) throw new CliError('serve --openapi needs the document and --base-url URL');
  const command: OpenApiCommand = {
    name: 'serve',
    server: 'openapi',
    spec,
    baseUrl,
    headers: headersOf(values.header ?? []),
  };
  const token = values['token-env'] === undefined ? values.token : process.env[values['token-env']];
  if (values['token-env'] !== undefined && !token)
    throw new CliError(`--token-env: ${values['token-env']} is not set`);
  if (token) command.token = token;
  if (values.timeout !== undefined) command.timeoutMs = bounded('--timeout', values.timeout, [1, 3_600_000]);
  if (values.port !== undefined) command.port = bounded('--port', values.port, [0, 65535]);
  if (values.host !== undefined) {
    if (command.port === undefined) throw new CliError('--host needs --port');
    command.host = values.host;
  }
  return command;
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match?.[1] || /[\r\n\0]/.test(match[2] ?? ''))
      throw new CliError(`--header must look like 'Name: value', not \`${line}\``);
    out[match[1]] = (match[2] ?? '').trim();
  }
  return out;
}

function bounded(flag: string, value: string, [min, max]: [number, number]): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CliError(`${flag} must be an integer from ${min} to ${max}, not \`${value}\``);
  return n;
}

/** Serves the document until the client goes away (stdio) or a signal arrives (HTTP). */
export async function serveOpenApi(command: OpenApiCommand): Promise<void> {
  const { fromOpenApi } = await import('../openapi/index.js');
  const options: OpenApiOptions = { baseUrl: command.baseUrl, headers: command.headers };
  if (command.token) options.auth = { type: 'bearer', token: command.token };
  if (command.timeoutMs !== undefined) options.timeoutMs = command.timeoutMs;
  const served = await fromOpenApi(command.spec, options);
  for (const issue of served.issues)
    process.stderr.write(
      `mcpkit: not served: ${issue.operation}${issue.operationId ? ` (${issue.operationId})` : ''}: ${issue.message}\n`,
    );
  // A server with nothing to offer from a document that has operations is a mistake, not a start.
  if (served.tools.length === 0 && served.resources.length === 0)
    throw new CliError(
      served.issues.length > 0
        ? `serve --openapi: none of the ${served.issues.length} operations of ${command.spec} can be served (reasons above)`
        : `serve --openapi: ${command.spec} has no operations to serve`,
      { kind: 'failure' },
    );
  if (command.port === undefined) {
    await serveStdio(served.server);
    return;
  }
  const { serve } = await import('../integrations/node/index.js');
  const running = await serve(served.server, { port: command.port, host: command.host ?? '127.0.0.1' });
  process.stderr.write(
    `mcpkit: serving ${served.tools.length} tools of ${command.spec} at ${running.url} (Ctrl-C to stop)\n`,
  );
  await signalled();
  await running.close();
}
