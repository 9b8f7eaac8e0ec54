#!/usr/bin/env node
/**
 * The `mcpkit` command: inspect a server, call a tool, read a resource, get a prompt, or
 * serve the everything server. Errors end in one line on stderr and exit code 1.
 */
import { parseCommandLine, type Command } from './args.js';
import { describeError } from './errors.js';
import { formatInspection, inspect } from './inspect.js';
import { callTool, getPrompt, readResource, type Output } from './results.js';
import { cliVersion, withSession } from './session.js';
import { usage } from './usage.js';

/** Runs one command line; resolves with the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    const output = await execute(command);
    if (output === undefined) return 0;
    if (output.failed && !('json' in command && command.json)) {
      process.stderr.write(`mcpkit: ${output.text.replace(/\s*\n\s*/g, ' | ')}\n`);
      return 1;
    }
    if (output.text !== '') process.stdout.write(`${output.text}\n`);
    return output.failed ? 1 : 0;
  } catch (error) {
    process.stderr.write(`mcpkit: ${describeError(error)}\n`);
    return 1;
  }
}

async function execute(command: Command): Promise<Output | undefined> {
  switch (command.name) {
    case 'help':
      return { text: usage(command.topic), failed: false };
    case 'version':
      return { text: cliVersion(), failed: false };
    case 'serve': {
      const { serveEverything } = await import('./serve.js');
      await serveEverything(command);
      return undefined;
    }
    case 'inspect':
      return withSession(command, async ({ client, signal }) => {
        const inspection = await inspect(client, signal);
        const text = command.json ? JSON.stringify(inspection, null, 2) : formatInspection(inspection);
        return { text, failed: false };
      });
    case 'call':
      return withSession(command, ({ client, signal }) => callTool(client, { ...command, signal }));
    case 'read':
      return withSession(command, ({ client, signal }) => readResource(client, { ...command, signal }));
    case 'prompt':
      return withSession(command, ({ client, signal }) => getPrompt(client, { ...command, signal }));
  }
}

void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
