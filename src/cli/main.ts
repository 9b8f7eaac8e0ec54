#!/usr/bin/env node
/**
 * The `mcpkit` command: inspect a server, call a tool, read a resource, get a prompt, or
 * serve a reference server. Errors end in one line on stderr (one JSON object with
 * `--json`) and an exit code per kind of failure (see `EXIT_CODES`).
 */
import { parseCommandLine, type Command, type ClientFlags } from './args.js';
import { runAuthCommand } from './auth-commands.js';
import { runCheck } from './check.js';
import { describeError, errorJson, EXIT_CODES, kindOf } from './errors.js';
import { formatInspection, inspect } from './inspect.js';
import { callTool, getPrompt, readResource, type Output } from './results.js';
import type { Session, SessionOptions } from './session.js';
import { usage } from './usage.js';

/** Runs one command line; resolves with the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    if (DEV_TOOLS.has(argv[0] ?? '')) return await (await import('./dev-tools.js')).runDevTool(argv);
    if (argv[0] === 'install')
      return await (await import('./install/command.js')).installCommand(argv.slice(1));
    if (argv[0] === 'dev') return await (await import('./dev/command.js')).devCommand(argv.slice(1));
    const command = parseCommandLine(argv);
    if (command.name === 'check') return await runCheck(command);
    const output = await execute(command);
    if (typeof output === 'number') return output;
    if (output === undefined) return 0;
    if (output.failed && !('json' in command && command.json)) {
      process.stderr.write(`mcpkit: ${output.text.replace(/\s*\n\s*/g, ' | ')}\n`);
      return EXIT_CODES.tool;
    }
    if (output.text !== '') process.stdout.write(`${output.text}\n`);
    return output.failed ? EXIT_CODES.tool : 0;
  } catch (error) {
    const line = wantsJson(argv) ? errorJson(error) : `mcpkit: ${describeError(error)}`;
    process.stderr.write(`${line}\n`);
    return EXIT_CODES[kindOf(error)];
  }
}

/** Commands whose module parses and prints for itself (see dev-tools.ts). */
const DEV_TOOLS = new Set(['contract', 'record', 'replay', 'codegen']);

/** `--json` before any `--`: errors are reported as JSON too, even usage errors. */
function wantsJson(argv: readonly string[]): boolean {
  const split = argv.indexOf('--');
  return (split === -1 ? argv : argv.slice(0, split)).includes('--json');
}

async function execute(command: Exclude<Command, { name: 'check' }>): Promise<Output | number | undefined> {
  switch (command.name) {
    case 'help':
      return { text: usage(command.topic), failed: false };
    case 'version':
      return { text: (await import('./session.js')).cliVersion(), failed: false };
    case 'serve': {
      if (command.server === 'openapi')
        return void (await (await import('./serve-openapi.js')).serveOpenApi(command));
      const { serveEverything, serveReference } = await import('./serve.js');
      await (command.server === 'everything' ? serveEverything(command) : serveReference(command));
      return undefined;
    }
    case 'login':
    case 'logout':
      // args.ts parses these commands, so the module is loaded already; its OAuth code is lazy.
      return { text: await runAuthCommand(command), failed: false };
    case 'migrate':
      return { text: await (await import('./migrate.js')).runMigrate(command), failed: false };
    case 'gateway':
    case 'proxy': {
      const { runHostCommand } = await import('./host-commands.js');
      return runHostCommand(command);
    }
    case 'card':
    case 'registry-json':
      return (await import('./card-commands.js')).runCardCommands(command);
    case 'inspect':
      if (command.ui) return (await import('./ui/command.js')).runInspectorUi(command);
      return withSession(command, async ({ client, signal }) => {
        const inspection = await inspect(client, signal);
        const text = command.json ? JSON.stringify(inspection, null, 2) : formatInspection(inspection);
        return { text, failed: false };
      });
    case 'call':
      return withSession(command, ({ client, signal }) => callTool(client, { ...command, signal }), ASK);
    case 'read':
      return withSession(command, ({ client, signal }) => readResource(client, { ...command, signal }), ASK);
    case 'prompt':
      return withSession(command, ({ client, signal }) => getPrompt(client, { ...command, signal }), ASK);
  }
}

/**
 * The session module (client, transports, OAuth) loads only for client commands, so
 * `mcpkit serve everything` on stdio starts without them.
 */
async function withSession<T>(
  flags: ClientFlags,
  use: (session: Session) => Promise<T>,
  options?: SessionOptions,
): Promise<T> {
  return (await import('./session.js')).withSession(flags, use, options);
}

/** Commands whose request may need the user's input ask at a terminal (see ask.ts). */
const ASK: SessionOptions = { ask: true };

void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
