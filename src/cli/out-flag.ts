/**
 * The output flag that lands after `--`. Everything after `--` belongs to the server's
 * command, so `mcpkit codegen -- node server.js -o types.ts` hands `-o types.ts` to the
 * server and prints to stdout. The server's own argv may take `-o` legitimately, so the
 * rule is:
 * - when mcpkit writes no file (its own `-o`/`--out` is not set before `--`), the command
 *   is refused as a usage error (exit 2), naming the flag and where to put it;
 * - when mcpkit does write a file, a warning naming the flag goes to stderr and the
 *   command runs (the server gets its own `-o`).
 * To print to stdout while the server takes `-o`, give mcpkit `-o /dev/stdout`.
 */
import { CliError } from './errors.js';

/** The first token after `--` that spells mcpkit's output flag (`-o`, `--out`, `--out=FILE`). */
function outFlagAfterSeparator(argv: readonly string[], short: boolean): string | undefined {
  const split = argv.indexOf('--');
  if (split === -1) return undefined;
  return argv
    .slice(split + 1)
    .find((arg) => arg === '--out' || arg.startsWith('--out=') || (short && arg === '-o'));
}

/** What {@link checkOutFlag} looks at. */
export interface OutFlagCheck {
  /** The command's own output file, set before `--` (undefined: it writes to stdout). */
  out: unknown;
  /** Whether the command's flag has the `-o` spelling beside `--out`. */
  short: boolean;
  /** Where the warning goes (default one line on stderr). */
  warn?: (line: string) => void;
}

/**
 * Applies the rule above for command `name` run with `argv`.
 * @throws CliError (usage) when the flag after `--` means no file would be written.
 */
export function checkOutFlag(name: string, argv: readonly string[], options: OutFlagCheck): void {
  const out = options.out;
  const flag = outFlagAfterSeparator(argv, options.short);
  if (flag === undefined) return;
  const spelled = options.short ? '-o FILE' : '--out FILE';
  if (typeof out !== 'string')
    throw new CliError(
      `\`${flag}\` comes after \`--\`, so it is an argument of the server's command and no file would be written; put ${spelled} before \`--\` (mcpkit ${name} ${spelled} -- COMMAND ...)`,
    );
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  warn(
    `mcpkit: warning: \`${flag}\` after \`--\` goes to the server's command, not to mcpkit (mcpkit writes ${out})`,
  );
}
