/**
 * The command line of `mcpkit serve NAME [ARGS…] [--port N] [--host HOST]` for the reference
 * servers other than everything: the CLI takes `--port`, `--host` and `--help` wherever they
 * appear before `--`; every other word, in order, and everything after `--` are the server's
 * own command-line arguments (those of the official server it stands in for).
 */
import { parseArgs } from 'node:util';
import { CliError } from './errors.js';

/**
 * The reference servers `mcpkit serve` offers, each a folder `servers/<name>/` built to
 * `dist/servers/<name>/server.js`. everything has its own flags; the others take their
 * official server's arguments.
 */
const REFERENCE_SERVERS = [
  'everything',
  'filesystem',
  'memory',
  'sequential-thinking',
  'time',
  'git',
  'fetch',
] as const;

/** The reference servers' names, for messages. */
export const OFFERED = REFERENCE_SERVERS.join(', ');

/** The name of a reference server. */
export type ReferenceServerName = (typeof REFERENCE_SERVERS)[number];

/** `mcpkit serve NAME …` for a reference server other than everything. */
export interface ReferenceServeCommand {
  name: 'serve';
  server: Exclude<ReferenceServerName, 'everything'>;
  /** The server's own arguments (the official server's command line), in order. */
  serverArgs: string[];
  /** `--port`: serve Streamable HTTP on this port (0: any free one) instead of stdio. */
  port?: number;
  /** `--host`: the interface to bind (needs `--port`). */
  host?: string;
}

const CLI_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The server named by `serve`'s first positional before `--`, when it is a reference server but not everything. */
export function referenceServeName(argv: readonly string[]): ReferenceServeCommand['server'] | undefined {
  const { tokens } = split(argv);
  const first = tokens.find((token) => token.kind === 'positional');
  const name = first?.kind === 'positional' ? first.value : undefined;
  return isReferenceName(name) && name !== 'everything' ? name : undefined;
}

/**
 * Parses the arguments after `serve` for a reference server named by {@link referenceServeName}.
 * @throws CliError for a bad `--port`, or `--host` without `--port`.
 */
export function parseReferenceServe(
  argv: readonly string[],
): ReferenceServeCommand | { name: 'help'; topic: 'serve' } {
  const { own, tokens, after } = split(argv);
  let server: ReferenceServeCommand['server'] | undefined;
  const serverArgs: string[] = [];
  const flags: { port?: string; host?: string } = {};
  let last = -1; // a group of short flags (`-xy`) is one word with several tokens
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'option' && (token.name === 'port' || token.name === 'host')) {
      if (token.value === undefined) throw new CliError(`--${token.name} needs a value`);
      flags[token.name] = token.value;
      continue;
    }
    if (token.kind === 'option' && token.name === 'help') return { name: 'help', topic: 'serve' };
    if (token.index === last) continue;
    last = token.index;
    const raw = own[token.index] as string;
    if (server === undefined && token.kind === 'positional') server = raw as ReferenceServeCommand['server'];
    else serverArgs.push(raw);
  }
  if (server === undefined) throw new CliError('`serve` needs a server name; run `mcpkit serve --help`');
  const command: ReferenceServeCommand = { name: 'serve', server, serverArgs: [...serverArgs, ...after] };
  if (flags.port !== undefined) command.port = portNumber(flags.port);
  if (flags.host !== undefined) {
    if (command.port === undefined) throw new CliError('--host needs --port');
    command.host = flags.host;
  }
  return command;
}

/**
 * The tokens of the words before the first `--` (unknown options kept as they are: they
 * belong to the server) and the words after it.
 */
function split(argv: readonly string[]) {
  const at = argv.indexOf('--');
  const own = at === -1 ? argv : argv.slice(0, at);
  const after = at === -1 ? [] : argv.slice(at + 1);
  const { tokens } = parseArgs({
    args: [...own],
    options: CLI_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return { own, tokens, after };
}

function isReferenceName(name: string | undefined): name is ReferenceServerName {
  return (REFERENCE_SERVERS as readonly (string | undefined)[]).includes(name);
}

/** A `--port` value. @throws CliError outside 0 to 65535. */
function portNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new CliError(`--port must be 0 to 65535, not \`${value}\``);
  return n;
}
