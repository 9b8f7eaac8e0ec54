/**
 * The command lines of `mcpkit card` and `mcpkit registry-json`, and their `--help`
 * (kept apart from the shared parser, as host-args.ts is; the commands run in card.ts and
 * registry-json.ts).
 */
import { parseArgs } from 'node:util';
import { checkOutFlag } from './out-flag.js';
import { CliError } from './errors.js';
import { refuseCredentials } from './host-args.js';

/** Where `registry-json` reads the server from (the shape of args.ts `Target`). */
export type RegistryTarget =
  { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string } | { kind: 'builtin' };

/** `mcpkit card`. */
export type CardCommand =
  | {
      name: 'card';
      help?: false;
      url: string;
      check: boolean;
      json: boolean;
      timeoutMs: number;
      headers: Record<string, string>;
      values: Record<string, string>;
    }
  | { name: 'card'; help: true };

/** `--help` of `mcpkit card`. */
export const CARD_USAGE = `Usage: mcpkit card URL [--check] [flags]

Fetches the Server Card (SEP-2127 draft) of a Streamable HTTP endpoint and validates it.
URL is the endpoint (the card is read from URL/server-card) or the card's own URL.
Without --check the card is printed.

  --check                   connect to each remote the card names and compare the card
                            with what is served there: name, version, title, description,
                            icons, supported protocol versions, transport, whether the
                            Authorization header it declares is needed; also the
                            capabilities against the lists served, and across remotes
  --var NAME=VALUE          a value for a {NAME} variable in a remote URL (repeatable)
  --header 'NAME: VALUE'    extra HTTP header on every request (repeatable)
  --token TOKEN             a bearer token for protected remotes
  --timeout MS              per-request timeout in milliseconds (default 10000)
  --json                    print the card, or the check's report, as JSON
  -h, --help                show this help

Exit codes: 0 the card is valid (with --check: and agrees with the server), 1 drift
found, 2 usage, 3 the card could not be fetched, 4 the card is not valid.`;

/** Parses the arguments after `card`. @throws CliError for bad usage. */
export function parseCardCommand(argv: readonly string[]): CardCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        check: { type: 'boolean' },
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        header: { type: 'string', multiple: true },
        token: { type: 'string' },
        var: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new CliError(`card: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit card --help\``);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { name: 'card', help: true };
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0)
    throw new CliError('`card` takes one URL; run `mcpkit card --help`');
  if (!/^https?:\/\//i.test(url)) throw new CliError(`\`${url}\` is not an http(s) URL`);
  refuseCredentials(url);
  const timeoutMs = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new CliError(`--timeout must be a positive integer, not \`${values.timeout}\``);
  const headers = pairs(values.header ?? [], /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/, '--header');
  if (values.token !== undefined) headers.authorization = `Bearer ${values.token}`;
  const vars = pairs(values.var ?? [], /^([a-zA-Z_][a-zA-Z0-9_]*)=(.*)$/, '--var');
  return {
    name: 'card',
    url,
    check: values.check === true,
    json: values.json === true,
    timeoutMs,
    headers,
    values: vars,
  };
}

function pairs(lines: readonly string[], shape: RegExp, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const match = shape.exec(line);
    if (!match?.[1] || /[\r\n\0]/.test(match[2] ?? ''))
      throw new CliError(`${flag}: cannot read \`${line}\``);
    Object.defineProperty(out, match[1], {
      value: (match[2] ?? '').trim(),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

/** `mcpkit registry-json`. */
export type RegistryJsonCommand =
  | { name: 'registry-json'; help: true }
  | {
      name: 'registry-json';
      help?: false;
      target: RegistryTarget;
      packageFile: string;
      serverName?: string;
      remotes: string[];
      out?: string;
    };

/** `--help` of `mcpkit registry-json`. */
export const REGISTRY_JSON_USAGE = `Usage: mcpkit registry-json [URL] [flags] [-- COMMAND [ARGS...]]

Writes the MCP Registry's server.json (schema 2025-12-11) for a server. Name, title,
description, version, icons and website come from the server itself (its serverInfo);
the npm package, repository and homepage come from package.json.

  --package FILE            the package.json to read (default ./package.json); its
                            "mcpName" is the registry name, "name" and "version" the npm
                            package (stdio transport)
  --name NAME               the reverse-DNS registry name (default "mcpName", else the
                            server's own name when it is reverse-DNS)
  --remote URL              a Streamable HTTP endpoint where the server is hosted
                            (repeatable)
  --out FILE                write the file there (default: print it)
  -h, --help                show this help

Server (one of):
  -- COMMAND [ARGS...]   spawn COMMAND and speak stdio to it
  URL                    connect to a Streamable HTTP endpoint (http:// or https://)
  (neither)              spawn the built-in everything server

Fails (exit 2) when the result would not be a valid server.json: a name that is not
reverse-DNS, a description missing or over 100 characters, the server's version not the
package's. Icons that are not https URLs are left out (the Registry takes only those).`;

/** Parses the arguments after `registry-json`. @throws CliError for bad usage. */
export function parseRegistryJsonCommand(argv: readonly string[]): RegistryJsonCommand {
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
        package: { type: 'string' },
        name: { type: 'string' },
        remote: { type: 'string', multiple: true },
        out: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(
      `registry-json: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit registry-json --help\``,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { name: 'registry-json', help: true };
  checkOutFlag('registry-json', argv, { out: values.out, short: false });
  if (positionals.length > 1 || (positionals.length === 1 && command !== undefined))
    throw new CliError(
      '`registry-json` takes one URL or a command after `--`; run `mcpkit registry-json --help`',
    );
  for (const url of [...positionals, ...(values.remote ?? [])]) {
    if (!/^https?:\/\/\S+$/i.test(url)) throw new CliError(`\`${url}\` is not an http(s) URL`);
    refuseCredentials(url);
  }
  const target: RegistryTarget =
    command !== undefined
      ? { kind: 'stdio', command, args }
      : positionals[0] !== undefined
        ? { kind: 'http', url: positionals[0] }
        : { kind: 'builtin' };
  return {
    name: 'registry-json',
    target,
    packageFile: values.package ?? 'package.json',
    remotes: values.remote ?? [],
    ...(values.name === undefined ? {} : { serverName: values.name }),
    ...(values.out === undefined ? {} : { out: values.out }),
  };
}
