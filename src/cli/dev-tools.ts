/**
 * The developer tools of the CLI, each parsing its own flags and printing its own output:
 * `contract snapshot|diff`, `record`, `replay` and `codegen`. The server is given as the
 * client commands take it (a URL, or `-- COMMAND ARGS`; neither: the everything server).
 */
import { writeFile } from 'node:fs/promises';
import { parseClientArgs, type ClientArgs } from './args.js';
import { CliError, EXIT_CODES } from './errors.js';
import { checkOutFlag } from './out-flag.js';
import { frontOf, type Front } from './host-args.js';

const SERVER = `Server (one of):
  -- COMMAND [ARGS...]   spawn COMMAND and speak stdio to it
  URL                    connect to a Streamable HTTP endpoint (http:// or https://)
  (neither)              spawn the built-in everything server
Client flags (--era, --timeout, --header, --token, --stderr, ...): see \`mcpkit inspect --help\`.`;

/** Help pages, by command. */
const HELP = {
  contract: `Usage: mcpkit contract snapshot [URL] [-o FILE] [client flags] [-- COMMAND [ARGS...]]
       mcpkit contract diff OLD.json NEW.json [--fail-on LEVEL] [--json]

snapshot  connects as a modern and as a legacy client (or only --era's) and prints a
          stable, sorted JSON description of what the server offers on each era: tools
          with schemas and annotations, resources, templates, prompts, capabilities.
diff      classifies each change from OLD to NEW as breaking (removed tool, new required
          argument, narrowed type, removed enum value, output field removed, stricter
          schema), review (wording, annotations, new optional argument) or info.

  -o, --out FILE            write the snapshot to FILE instead of stdout
  --fail-on LEVEL           breaking (default), review or info: the least serious level
                            that makes diff exit 1
  --json                    diff: the changes as JSON

Exit codes: 0 no change at --fail-on or worse, 1 there is one, 2 usage, 3 connection.

${SERVER}`,
  record: `Usage: mcpkit record --out FILE [-- COMMAND [ARGS...]]
       mcpkit record --out FILE URL [--port N [--host HOST]]

Sits between a client and a server and records every JSON-RPC message to FILE (JSON
Lines, see docs/guide/record-replay.md), with tokens and secrets redacted.
  -- COMMAND    a stdio proxy: run \`mcpkit record --out FILE -- COMMAND\` as the server
                command of any client; COMMAND is spawned and spoken to unchanged.
  URL           an HTTP proxy on 127.0.0.1 (random port, or --port); point the client at
                the URL printed on stderr. Ctrl-C stops it.

  -o, --out FILE            where to write the recording (required)
  --port N, --host HOST     where the HTTP proxy listens (URL only)`,
  replay: `Usage: mcpkit replay FILE [--port N [--host HOST]]

Serves a recording as a deterministic mock server: on stdio by default, on Streamable HTTP
with --port. A request is answered with the recorded answer to the same method and params
(ids, progress tokens, per-request client info and requestState ignored); the Nth identical
request gets the Nth recorded answer. Anything else gets an error naming the nearest
recorded request.

  --port N, --host HOST     serve HTTP on 127.0.0.1:N (0 picks a free port; URL on stderr)`,
  codegen: `Usage: mcpkit codegen [URL] [-o FILE] [client flags] [-- COMMAND [ARGS...]]

Writes TypeScript for the server's tools: an interface for each tool's arguments and
structured output (from inputSchema and outputSchema) and \`createTools(client)\`, a typed
proxy over an mcpkit Client (\`await tools.forecast({ city })\` returns the typed
structured result). The same server gives the same file.

  -o, --out FILE            write to FILE instead of stdout

${SERVER}`,
} as const;

type Name = keyof typeof HELP;

/** Runs `contract`, `record`, `replay` or `codegen`; resolves with the exit code. */
export async function runDevTool(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv as [Name, ...string[]];
  if (
    rest[0] === '--help' ||
    rest[0] === '-h' ||
    (rest.length === 0 && name !== 'record' && name !== 'codegen')
  ) {
    process.stdout.write(`${HELP[name]}\n`);
    return rest.length === 0 ? EXIT_CODES.usage : 0;
  }
  if (name === 'contract') return contract(rest);
  if (name === 'record') return record(rest);
  if (name === 'replay') return replay(rest);
  return codegen(rest);
}

const OUT = { out: { type: 'string', short: 'o' } } as const;

function parsed(
  name: Name,
  argv: readonly string[],
  options: Parameters<typeof parseClientArgs>[2] = {},
): ClientArgs | undefined {
  const args = parseClientArgs(name, argv, options);
  if (args.values.help !== true) return args;
  process.stdout.write(`${HELP[name]}\n`);
  return undefined;
}

async function contract(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { diffCommand, failLevel, snapshotCommand } = await import('./contract.js');
  if (sub === 'snapshot') {
    const args = parsed('contract', rest, OUT);
    if (!args) return 0;
    if (args.positionals.length > 0) throw new CliError('`contract snapshot` takes no file; use -o FILE');
    checkOutFlag('contract snapshot', rest, { out: args.values.out, short: true });
    await emit(await snapshotCommand(args.flags), args.values.out);
    return 0;
  }
  if (sub !== 'diff')
    throw new CliError('`contract` takes `snapshot` or `diff`; run `mcpkit contract --help`');
  const split = rest.indexOf('--');
  if (split !== -1) throw new CliError('`contract diff` compares two files; it takes no server');
  const args = parsed('contract', rest, { 'fail-on': { type: 'string' } });
  if (!args) return 0;
  const [before, after, ...extra] = args.positionals;
  if (before === undefined || after === undefined || extra.length > 0)
    throw new CliError('`contract diff` takes two files: OLD.json NEW.json');
  const failOn = failLevel(args.values['fail-on']);
  const outcome = await diffCommand([before, after], { failOn, json: args.flags.json });
  process.stdout.write(`${outcome.text}\n`);
  return outcome.failed ? 1 : 0;
}

async function record(argv: readonly string[]): Promise<number> {
  const args = parsed('record', argv, { ...OUT, port: { type: 'string' }, host: { type: 'string' } });
  if (!args) return 0;
  const out = args.values.out;
  checkOutFlag('record', argv, { out, short: true });
  if (typeof out !== 'string') throw new CliError('`record` needs --out FILE');
  if (args.positionals.length > 0) throw new CliError(`\`record\` takes no \`${args.positionals[0]}\``);
  const front = parseFront(args.values);
  const { recordServer } = await import('./record/command.js');
  return recordServer(args.flags, { out, front });
}

async function replay(argv: readonly string[]): Promise<number> {
  const args = parsed('replay', argv, { port: { type: 'string' }, host: { type: 'string' } });
  if (!args) return 0;
  const [file, ...extra] = args.positionals;
  if (file === undefined || extra.length > 0 || args.flags.target.kind !== 'builtin')
    throw new CliError('`replay` takes one recording file (and no server)');
  const { replayRecording } = await import('./replay/command.js');
  return replayRecording(file, parseFront(args.values));
}

async function codegen(argv: readonly string[]): Promise<number> {
  const args = parsed('codegen', argv, OUT);
  if (!args) return 0;
  if (args.positionals.length > 0)
    throw new CliError(`\`codegen\` takes no \`${args.positionals[0]}\`; use -o FILE`);
  checkOutFlag('codegen', argv, { out: args.values.out, short: true });
  const { codegenCommand } = await import('./codegen.js');
  await emit(await codegenCommand(args.flags), args.values.out);
  return 0;
}

function parseFront(values: ClientArgs['values']): Front {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return frontOf(str(values.port), str(values.host));
}

async function emit(text: string, out: unknown): Promise<void> {
  if (typeof out === 'string') await writeFile(out, text.endsWith('\n') ? text : `${text}\n`);
  else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
