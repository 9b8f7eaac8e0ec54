/** The target of `mcpkit check` from the client flags: a spawned command, a URL, or the built-in server. */
import { spawnStdio } from '../integrations/stdio/index.js';
import type { CheckTarget } from '../testing/index.js';
import type { CheckCommand } from './args.js';
import { builtinServer } from './session.js';

/** How long a spawned server gets at each shutdown step, in milliseconds. */
const SHUTDOWN_STEP_MS = 1000;

/** Turns the command's target into a checker target; a stdio server is spawned once per connection. */
export function checkTarget(command: CheckCommand): CheckTarget {
  const where = command.target;
  if (where.kind === 'http') {
    const headers = {
      ...command.headers,
      ...(command.token ? { authorization: `Bearer ${command.token}` } : {}),
    };
    return { kind: 'http', label: where.url, url: where.url, headers };
  }
  const { command: file, args } = where.kind === 'stdio' ? where : builtinServer();
  const label = where.kind === 'stdio' ? [file, ...args].join(' ') : 'the built-in everything server';
  const open = () =>
    spawnStdio({
      command: file,
      args,
      env: { ...process.env },
      stderr: command.stderr === true ? 'inherit' : 'pipe',
      shutdownTimeoutMs: SHUTDOWN_STEP_MS,
    });
  return { kind: 'transport', label, open };
}
