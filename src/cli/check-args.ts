/** The command line of `mcpkit check`: its own flags (`--call`, `--strict`, `--fail-on`). */
import type { ParseArgsConfig } from 'node:util';
import type { SafeCall, Severity } from '../testing/index.js';
import { CliError } from './errors.js';

/** The flags `check` takes beyond the client ones. */
export const CHECK_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  call: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'fail-on': { type: 'string' },
};

/** `NAME` or `NAME=JSON`: a tool the user says is safe to call, with its arguments. */
function safeCall(raw: string): SafeCall {
  const split = raw.indexOf('=');
  const tool = split === -1 ? raw : raw.slice(0, split);
  if (tool === '') throw new CliError(`--call needs a tool name, e.g. --call echo='{"text":"hi"}'`);
  if (split === -1) return { tool, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(raw.slice(split + 1));
  } catch {
    throw new CliError(`--call ${tool}=…: the arguments are not valid JSON`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new CliError(`--call ${tool}=…: the arguments must be a JSON object`);
  return { tool, args: args as Record<string, unknown> };
}

/** What `check` adds to the client flags: the safe calls and the fail level. */
export interface CheckFlags {
  calls: SafeCall[];
  failOn: Severity;
}

/**
 * Reads `--call`, `--strict` and `--fail-on` from the parsed flag values.
 * @throws CliError for a bad level, both `--strict` and `--fail-on`, or bad `--call` JSON.
 */
export function checkFlags(values: Record<string, unknown>): CheckFlags {
  const level = values['fail-on'];
  if (level !== undefined && level !== 'error' && level !== 'warning' && level !== 'info')
    throw new CliError(`--fail-on must be error, warning or info, not \`${String(level)}\``);
  if (level !== undefined && values.strict === true)
    throw new CliError('give --strict or --fail-on, not both');
  const failOn: Severity = values.strict === true ? 'warning' : ((level as Severity | undefined) ?? 'error');
  const calls = Array.isArray(values.call) ? values.call.map((c) => safeCall(String(c))) : [];
  return { calls, failOn };
}
