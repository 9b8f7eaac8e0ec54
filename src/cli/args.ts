/**
 * Turns `process.argv` into one {@link Command}. Everything after the first `--` is the
 * server command line; flags are parsed per command with `util.parseArgs` (strict, so an
 * unknown flag is an error).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { EraPreference } from '../client/index.js';
import type { ElicitResult } from '../core/index.js';
import { CliError } from './errors.js';
import { UPSTREAM_OPTIONS, everythingServeCommand, type EverythingServeCommand } from './serve-upstream.js';
import { isHostCommand, parseHostCommand, refuseCredentials, type HostCommand } from './host-args.js';
import { isAuthCommand, parseAuthCommand, type AuthCommand } from './auth-commands.js';
import { CHECK_OPTIONS, checkFlags, type CheckFlags } from './check-args.js';
import { parseMoreCommand, type MoreCommand } from './more-commands.js';
import * as reference from './serve-args.js';

/** Where the server is: a command to spawn, an HTTP endpoint, or the built-in everything server. */
export type Target =
  { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string } | { kind: 'builtin' };

/** Options shared by the commands that talk to a server. */
export interface ClientFlags {
  target: Target;
  json: boolean;
  era: EraPreference;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Longest wait for the connection (spawn or reach, era probe, handshake) in milliseconds. */
  connectTimeoutMs?: number;
  /** Extra HTTP headers from `--header 'Name: value'` (HTTP targets only). */
  headers?: Record<string, string>;
  /** A bearer token from `--token` (HTTP targets only); without it, the OAuth browser flow. */
  token?: string;
  /** `--stderr`: show a spawned server's stderr as it writes it (stdio targets only). */
  stderr?: boolean;
  /**
   * `--answer JSON`, in order: the answers to the server's elicitations, each an
   * `ElicitResult` (`{"action":"decline"}`) or the content of an accepted form (`{"name":"Ada"}`).
   */
  answers?: ElicitAnswer[];
}

/** One elicitation answer given on the command line (client/elicitation `ElicitResult`). */
export type ElicitAnswer = ElicitResult;

/** The names of the CLI's commands. */
export type CommandName = 'inspect' | 'call' | 'read' | 'prompt' | 'serve' | 'check';

/** `mcpkit check`: the client flags plus the safe calls and the fail level. */
export type CheckCommand = { name: 'check' } & ClientFlags & CheckFlags;

/** What the user asked for. */
export type Command =
  | HostCommand
  | MoreCommand
  | CheckCommand
  | AuthCommand
  | { name: 'help'; topic?: CommandName }
  | { name: 'version' }
  | ({ name: 'inspect'; ui?: boolean; config?: string } & ClientFlags)
  | ({ name: 'call'; tool: string; args: Record<string, unknown> } & ClientFlags)
  | ({ name: 'read'; uri: string } & ClientFlags)
  | ({ name: 'prompt'; prompt: string; args: Record<string, string> } & ClientFlags)
  | EverythingServeCommand
  | reference.ReferenceServeCommand;

type Options = NonNullable<ParseArgsConfig['options']>;
/** Flag values as `util.parseArgs` gives them. */
export type Values = Record<string, string | boolean | string[] | undefined>;

const HELP: Options = { help: { type: 'boolean', short: 'h' } };
const CLIENT: Options = {
  ...HELP,
  json: { type: 'boolean' },
  era: { type: 'string' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  header: { type: 'string', multiple: true },
  token: { type: 'string' },
  stderr: { type: 'boolean' },
  answer: { type: 'string', multiple: true },
};
const WITH_ARGS: Options = { ...CLIENT, args: { type: 'string' } };
const INSPECT: Options = { ...CLIENT, ui: { type: 'boolean' }, config: { type: 'string' } };
const SERVE: Options = {
  ...HELP,
  port: { type: 'string' },
  host: { type: 'string' },
  'auth-issuer': { type: 'string' },
  ...UPSTREAM_OPTIONS,
};

/** Which flags each command takes, and how many positionals (before `--`) it wants. */
const SPECS: Record<CommandName, { options: Options; positionals: [min: number, max: number] }> = {
  inspect: { options: INSPECT, positionals: [0, 1] },
  check: { options: { ...CLIENT, ...CHECK_OPTIONS }, positionals: [0, 1] },
  call: { options: WITH_ARGS, positionals: [1, 2] },
  read: { options: CLIENT, positionals: [1, 2] },
  prompt: { options: WITH_ARGS, positionals: [1, 2] },
  serve: { options: SERVE, positionals: [1, 1] },
};

/** `inspect`, with `--ui` and its `--config FILE` (the app's catalogue of servers). */
function inspectCommand(values: Values, flags: ClientFlags): Command {
  const config = typeof values.config === 'string' ? values.config : undefined;
  if (config !== undefined && values.ui !== true)
    throw new CliError('--config needs --ui (the catalogue is a view of the inspector app)');
  if (values.ui !== true) return { name: 'inspect', ...flags };
  return { name: 'inspect', ui: true, ...flags, ...(config === undefined ? {} : { config }) };
}

/**
 * Parses the arguments after `mcpkit` (i.e. `process.argv.slice(2)`).
 * @throws CliError for an unknown command or flag, a bad flag value, or bad `--args` JSON.
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h') return { name: 'help' };
  if (first === '--version' || first === '-v') return { name: 'version' };
  if (first === undefined) throw new CliError('missing command; run `mcpkit --help` for usage');
  if (isHostCommand(first)) return parseHostCommand(first, rest);
  if (isAuthCommand(first)) return parseAuthCommand(first, rest);
  const more = parseMoreCommand(first, rest);
  if (more) return more;
  if (!isCommandName(first)) {
    const what = first.startsWith('-') ? 'option' : 'command';
    throw new CliError(`unknown ${what} \`${first}\`; run \`mcpkit --help\` for usage`);
  }
  return parseCommand(first, rest);
}

function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(SPECS, name);
}

function parseCommand(name: CommandName, argv: readonly string[]): Command {
  if (name === 'serve' && reference.referenceServeName(argv)) return reference.parseReferenceServe(argv);
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const serverArgv = split === -1 ? [] : argv.slice(split + 1);
  const { values, positionals: all } = parseFlags(name, own);
  if (values.help === true) return { name: 'help', topic: name };
  const takesPairs = name === 'call' || name === 'prompt';
  const positionals = takesPairs ? all.filter((p) => !isPair(p)) : all;
  const pairs = takesPairs ? all.filter(isPair) : [];
  const [min, max] = SPECS[name].positionals;
  if (positionals.length < min || positionals.length > max) {
    throw new CliError(`\`${name}\` takes ${expected(min, max)}; run \`mcpkit ${name} --help\``);
  }
  if (name === 'serve') return everythingServeCommand(positionals, values, serverArgv);
  const [subject = '', urlArg] = name === 'inspect' || name === 'check' ? ['', positionals[0]] : positionals;
  const flags = clientFlags(values, target(urlArg, serverArgv));
  if (name === 'check') return { name, ...flags, ...checkFlags(values) };
  if (name === 'inspect') return inspectCommand(values, flags);
  if (name === 'read') return { name, uri: subject, ...flags };
  const args = { ...jsonArgs(values.args), ...pairArgs(pairs) };
  if (name === 'call') return { name, tool: subject, args, ...flags };
  return { name, prompt: subject, args: promptArgs(args), ...flags };
}

/** What {@link parseClientArgs} found: the client flags, the raw flag values, other positionals. */
export interface ClientArgs {
  flags: ClientFlags;
  values: Values;
  positionals: string[];
}

/**
 * Parses a client command defined in another module: its own `options` beside the client
 * flags, the server given as here (a URL positional, or `-- COMMAND`).
 * @throws CliError for an unknown flag, two URLs, or a bad client flag.
 */
export function parseClientArgs(name: string, argv: readonly string[], options: Options = {}): ClientArgs {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  let parsed;
  try {
    parsed = parseArgs({ args: [...own], options: { ...CLIENT, ...options }, allowPositionals: true });
  } catch (error) {
    throw new CliError(
      `${name}: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit ${name} --help\``,
    );
  }
  const values = parsed.values as Values;
  const urls = parsed.positionals.filter((p) => /^https?:\/\//i.test(p));
  const positionals = parsed.positionals.filter((p) => !urls.includes(p));
  if (urls.length > 1) throw new CliError(`\`${name}\` takes one server URL, not ${urls.length}`);
  if (values.help === true)
    return { flags: { target: { kind: 'builtin' }, json: false, era: 'auto' }, values, positionals };
  const flags = clientFlags(values, target(urls[0], split === -1 ? [] : argv.slice(split + 1)));
  return { flags, values, positionals };
}

function parseFlags(name: CommandName, argv: readonly string[]): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options: SPECS[name].options, allowPositionals: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.split(/\.\s/)[0] : String(error);
    throw new CliError(`${name}: ${message ?? 'bad arguments'}; run \`mcpkit ${name} --help\``);
  }
}

function expected(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}

function target(url: string | undefined, serverArgv: readonly string[]): Target {
  const [command, ...args] = serverArgv;
  if (url !== undefined && command !== undefined) {
    throw new CliError('give either a URL or a command after `--`, not both');
  }
  if (command !== undefined) return { kind: 'stdio', command, args };
  if (url === undefined) return { kind: 'builtin' };
  if (!/^https?:\/\//i.test(url)) {
    throw new CliError(`\`${url}\` is not an http(s) URL; put a server command after \`--\``);
  }
  refuseCredentials(url);
  return { kind: 'http', url };
}

function clientFlags(values: Values, where: Target): ClientFlags {
  const flags: ClientFlags = { target: where, json: values.json === true, era: era(values.era) };
  if (typeof values.timeout === 'string') flags.timeoutMs = positiveInteger('--timeout', values.timeout);
  const connect = values['connect-timeout'];
  if (typeof connect === 'string') flags.connectTimeoutMs = positiveInteger('--connect-timeout', connect);
  if (Array.isArray(values.header)) {
    if (where.kind !== 'http') throw new CliError('--header is for HTTP servers; give a URL');
    flags.headers = headers(values.header);
  }
  if (typeof values.token === 'string') {
    if (where.kind !== 'http') throw new CliError('--token is for HTTP servers; give a URL');
    flags.token = values.token;
  }
  if (values.stderr === true) {
    if (where.kind === 'http')
      throw new CliError('--stderr is for servers the CLI starts; an HTTP server has none');
    flags.stderr = true;
  }
  if (Array.isArray(values.answer)) flags.answers = values.answer.map(elicitAnswer);
  return flags;
}

/** `--answer`: a JSON `ElicitResult`, or an object taken as the content of an accepted form. */
function elicitAnswer(raw: string): ElicitAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new CliError(
      `--answer is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliError(`--answer must be a JSON object, e.g. '{"name":"Ada"}' or '{"action":"decline"}'`);
  const { action, content } = parsed as { action?: unknown; content?: unknown };
  type Content = NonNullable<ElicitResult['content']>; // the server checks it against its schema
  if (action === undefined) return { action: 'accept', content: parsed as Content };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
    throw new CliError(`--answer: action must be accept, decline or cancel, not \`${String(action)}\``);
  if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content)))
    throw new CliError('--answer: content must be a JSON object');
  return content === undefined ? { action } : { action, content: content as Content };
}

/** `--header 'Name: value'` (also `Name=value`) into a header record; names are HTTP tokens. */
function headers(lines: readonly string[]): Record<string, string> {
  const out = lines.map((line): [string, string] => {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*[:=]\s*(.*)$/.exec(line);
    if (!match?.[1] || /[\r\n\0]/.test(match[2] ?? '')) {
      throw new CliError(`--header must look like 'Name: value', not \`${line}\``);
    }
    return [match[1], (match[2] ?? '').trim()];
  });
  return Object.fromEntries(out); // own keys, even `__proto__`
}

/** `key=value` (a string) or `key:=json` (any JSON value), as in HTTPie. */
const PAIR = /^([^=:\s/]+)(:?=)([\s\S]*)$/;

function isPair(positional: string): boolean {
  return PAIR.test(positional) && !/^https?:\/\//i.test(positional);
}

function pairArgs(pairs: readonly string[]): Record<string, unknown> {
  const out = pairs.map((pair): [string, unknown] => {
    const [, key = '', op, raw = ''] = PAIR.exec(pair) ?? [];
    return [key, op === '=' ? raw : pairJson(key, raw)];
  });
  return Object.fromEntries(out); // argument names are the tool's: own keys, even `__proto__`
}

function pairJson(key: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new CliError(`\`${key}:=\` needs a JSON value, e.g. ${key}:=42 or ${key}:='["a"]'; got \`${raw}\``);
  }
}

function era(value: string | boolean | string[] | undefined): EraPreference {
  if (value === undefined || value === 'auto' || value === 'modern' || value === 'legacy') {
    return value ?? 'auto';
  }
  throw new CliError(`--era must be auto, modern or legacy, not \`${String(value)}\``);
}

function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`${flag} must be a positive integer, not \`${value}\``);
  return n;
}

function jsonArgs(value: string | boolean | string[] | undefined): Record<string, unknown> {
  if (typeof value !== 'string') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new CliError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('--args must be a JSON object, e.g. \'{"text":"hi"}\'');
  }
  return parsed as Record<string, unknown>;
}

function promptArgs(args: Record<string, unknown>): Record<string, string> {
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') throw new CliError(`--args: prompt argument \`${key}\` must be a string`);
  }
  return { ...(args as Record<string, string>) };
}
