/**
 * `mcpkit check`: runs every conformance rule against a server (stdio command or URL, one
 * era or both) and prints the findings, grouped by severity, or as JSON. Exits 1 when a
 * finding is at `--fail-on` or worse (default error; `--strict` means warning).
 */
import type { CheckReport } from '../testing/index.js';
import { LocalError } from '../core/index.js';
import type { CheckCommand } from './args.js';
import { CliError } from './errors.js';

/** Runs the check and prints the report; resolves with the exit code. */
export async function runCheck(command: CheckCommand): Promise<number> {
  const [{ checkServer, failsAt }, { checkTarget }, { formatReport }] = await Promise.all([
    import('../testing/index.js'),
    import('./check-target.js'),
    import('./check-format.js'),
  ]);
  const target = checkTarget(command);
  let report: CheckReport;
  try {
    report = await checkServer(target, {
      era: command.era,
      calls: command.calls,
      ...(command.timeoutMs === undefined ? {} : { timeoutMs: command.timeoutMs }),
      ...(command.connectTimeoutMs === undefined ? {} : { openTimeoutMs: command.connectTimeoutMs }),
    });
  } catch (error) {
    // Nothing was reached, so there is nothing to report on: a connection failure (exit 3);
    // a --call of a tool the server does not list is a usage error (exit 2).
    if (!(error instanceof LocalError)) throw error;
    const kind = error.code === 'INVALID_ARGUMENT' ? 'usage' : 'connection';
    throw new CliError(error.message, { kind, cause: error });
  }
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  process.stdout.write(command.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, colour));
  return failsAt(report, command.failOn) ? 1 : 0;
}

/** The help page of `check`. */
export const CHECK_USAGE = `Usage: mcpkit check [URL] [--call TOOL[=JSON]...] [--strict | --fail-on LEVEL] [flags] [-- COMMAND [ARGS...]]

Connects as a careful client on each era and checks the server against the spec: every
message against the negotiated revision's schema.json, server/discover and initialize,
capabilities, tool names and schemas, pagination and cache hints, the error codes of
requests that change nothing (unknown method, unknown tool, malformed params, unknown
protocol version), and on HTTP header validation, Origin, sessions and 401 metadata.
Each finding has a severity, a rule id and the spec section it rests on.

  --call TOOL[=JSON]        a tool that is safe to call, with its arguments (default {});
                            its structuredContent is checked against its outputSchema,
                            and a call without its required arguments must be refused
  --strict                  exit 1 on warnings too
  --fail-on LEVEL           exit 1 on findings at LEVEL or worse: error (default), warning, info
  --era auto|modern|legacy  check both eras (default) or one
  --timeout MS              longest wait for each answer (default 5000)
  --connect-timeout MS      longest wait for the first answer of each connection (default 15000)
  --header 'NAME: VALUE'    extra HTTP header on every request (URL only)
  --token TOKEN             a bearer token (URL only); without one, a 401 is checked as such
  --json                    print the report as JSON
  -h, --help                show this help

Exit codes: 0 no finding at the fail level, 1 findings at the fail level, 2 usage (also a
--call of a tool the server does not list),
3 the server could not be started or reached (nothing was checked).`;
