/**
 * Arguments of `mcpkit gateway` and `mcpkit proxy` (kept apart from the shared parser).
 *
 *   mcpkit gateway --config mcp.json [--port N [--host H]]
 *   mcpkit proxy [--port N [--host H]] -- COMMAND [ARGS...]
 *   mcpkit proxy URL [--port N [--host H]] [--header 'NAME: VALUE']...
 *
 * Without --port the front is stdio; with it, Streamable HTTP.
 */
import { parseArgs } from 'node:util';
import { CliError } from './errors.js';

/** Where the gateway or proxy listens: stdio, or HTTP on a port. */
export interface Front {
  port?: number;
  host?: string;
}

/** `mcpkit gateway` and `mcpkit proxy`. */
export type HostCommand =
  | ({ name: 'gateway'; config: string; help?: false } & Front)
  | ({
      name: 'proxy';
      backend: ({ command: string; args: string[] } | { url: string; headers: Record<string, string> }) & {
        era?: 'auto' | 'modern' | 'legacy';
      };
      help?: false;
    } & Front)
  | { name: 'gateway' | 'proxy'; help: true };

/** True for the commands this module parses. */
export function isHostCommand(name: string): name is 'gateway' | 'proxy' {
  return name === 'gateway' || name === 'proxy';
}

/** Parses the arguments after `gateway` or `proxy`. @throws CliError for bad usage. */
export function parseHostCommand(name: 'gateway' | 'proxy', argv: readonly string[]): HostCommand {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const [command, ...args] = split === -1 ? [] : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        header: { type: 'string', multiple: true },
        era: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(
      `${name}: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit ${name} --help\``,
    );
  }
  const { values, positionals } = parsed;
  if (values.help) return { name, help: true };
  const front = frontOf(values.port, values.host);
  if (name === 'gateway') {
    if (!values.config) throw new CliError('gateway needs --config FILE (an mcpServers JSON file)');
    if (positionals.length > 0 || command !== undefined) throw new CliError('gateway takes only flags');
    return { name, config: values.config, ...front };
  }
  const era = eraOf(values.era);
  const [url, ...extra] = positionals;
  if (extra.length > 0 || (url === undefined) === (command === undefined))
    throw new CliError('proxy takes either a URL or a command after `--`');
  if (command !== undefined) return { name, backend: { command, args, ...era }, ...front };
  if (!/^https?:\/\//i.test(url as string)) throw new CliError(`\`${url}\` is not an http(s) URL`);
  refuseCredentials(url as string);
  return { name, backend: { url: url as string, headers: headersOf(values.header ?? []), ...era }, ...front };
}

function eraOf(value: string | undefined): { era?: 'auto' | 'modern' | 'legacy' } {
  if (value === undefined) return {};
  if (value === 'auto' || value === 'modern' || value === 'legacy') return { era: value };
  throw new CliError(`--era must be auto, modern or legacy, not \`${value}\``);
}

/** `--port` and `--host` as a {@link Front}. @throws CliError for a bad port or a host without one. */
export function frontOf(port: string | undefined, host: string | undefined): Front {
  if (port === undefined) {
    if (host !== undefined) throw new CliError('--host needs --port');
    return {};
  }
  const n = Number(port);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new CliError(`--port must be 0 to 65535, not \`${port}\``);
  return host === undefined ? { port: n } : { port: n, host };
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const out = lines.map((line): [string, string] => {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*[:=]\s*(.*)$/.exec(line);
    if (!match?.[1]) throw new CliError(`--header must look like 'Name: value', not \`${line}\``);
    return [match[1], (match[2] ?? '').trim()];
  });
  return Object.fromEntries(out); // own keys, even `__proto__`
}

/** Help pages of the two commands. */
export const HOST_USAGE = {
  gateway: `Usage: mcpkit gateway --config FILE [--port N [--host HOST]]

Connects to every server of an mcpServers JSON file (Claude Desktop, Cursor and VS Code
write them) and serves their tools, prompts and resources as one MCP server, names
prefixed with the server's name (server__tool). Serves stdio by default, Streamable HTTP
with --port (the URL is printed to stderr); both protocol eras. Server status goes to stderr.

  --config FILE             the configuration ({ "mcpServers": { ... } })
  --port N                  serve Streamable HTTP on port N (0 picks a free port)
  --host HOST               interface to bind (default 127.0.0.1)
  -h, --help                show this help`,
  proxy: `Usage: mcpkit proxy [--port N [--host HOST]] -- COMMAND [ARGS...]
       mcpkit proxy URL [--port N [--host HOST]] [--header 'NAME: VALUE']...

Serves one server through mcpkit, names unchanged: a stdio server over Streamable HTTP
(give --port), or a remote Streamable HTTP server over stdio (no --port). Either way
clients of both eras can use it (legacy servers are bridged to modern clients).

  --port N                  serve Streamable HTTP on port N (0 picks a free port)
  --host HOST               interface to bind (default 127.0.0.1)
  --header 'NAME: VALUE'    header sent to the remote server (repeatable)
  --era auto|modern|legacy  the era to speak to the server (default auto)
  -h, --help                show this help`,
} as const;

/**
 * Refuses a URL with `user:password@` before anything echoes it: fetch cannot send it, and
 * error messages would print the password. Throws a usage error naming only the host.
 */
export function refuseCredentials(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed && (parsed.username || parsed.password)) {
    throw new CliError(`the URL for ${parsed.host} must not carry credentials; use --header or --token`);
  }
}
