/**
 * Every shell command of README.md and docs/ that has mcpkit write a file puts the output
 * flag where mcpkit reads it: before `--`, since everything after `--` is the server's
 * command (a fresh user copied `mcpkit codegen -- node dist/server.js -o src/tools.ts`,
 * which printed to stdout, wrote nothing and exited 0). The CLI's own check
 * (`src/cli/out-flag.ts`) accepts each such line without a warning, and the CLI refuses the
 * old spelling with a usage error before it starts anything.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fencesOf, markdownFiles } from '../support/doc-blocks.js';
import { checkOutFlag } from '../../src/cli/out-flag.js';
import { runDevTool } from '../../src/cli/dev-tools.js';
import { parseRegistryJsonCommand } from '../../src/cli/card-args.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The commands that write a file, and whether their flag has the `-o` spelling. */
const WRITERS: Readonly<Record<string, boolean>> = {
  codegen: true,
  'contract snapshot': true,
  record: true,
  'registry-json': false,
};

interface Line {
  readonly where: string;
  readonly command: string;
  readonly argv: string[];
}

/** Each `mcpkit …` line of a shell block that names an output flag. */
function writingLines(): Line[] {
  const lines: Line[] = [];
  for (const file of markdownFiles(ROOT)) {
    for (const fence of fencesOf(file, readFileSync(join(ROOT, file), 'utf8'))) {
      if (!['sh', 'bash', 'shell', 'console'].includes(fence.lang)) continue;
      fence.code.split('\n').forEach((text, i) => {
        const words = text
          .replace(/^\$\s*/, '')
          .replace(/#.*$/, '')
          .trim()
          .split(/\s+/);
        const at = words.indexOf('mcpkit');
        if (at === -1 || (at > 0 && words[at - 1] !== 'npx')) return;
        const argv = words.slice(at + 1);
        const command = argv[0] === 'contract' ? `contract ${argv[1] ?? ''}` : (argv[0] ?? '');
        if (!Object.hasOwn(WRITERS, command)) return;
        if (!argv.some((w) => w === '-o' || w.startsWith('--out'))) return;
        lines.push({ where: `${file}:${fence.line + 1 + i}`, command, argv });
      });
    }
  }
  return lines;
}

const lines = writingLines();

describe('shell commands in the docs that write a file', () => {
  it('exist (codegen and the contract CI recipe among them)', () => {
    expect(lines.map((l) => l.command)).toEqual(expect.arrayContaining(['codegen', 'contract snapshot']));
  });

  it.each(lines.map((l) => [l.where, l] as const))('%s puts the output flag before `--`', (_, line) => {
    const split = line.argv.indexOf('--');
    const own = split === -1 ? line.argv : line.argv.slice(0, split);
    const short = WRITERS[line.command] === true;
    const at = own.findIndex((w) => w === '--out' || (short && w === '-o'));
    const out = own[at + 1];
    expect(out, `${line.where}: no output flag before \`--\``).toBeDefined();
    const warnings: string[] = [];
    checkOutFlag(line.command, line.argv, { out, short, warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
  });
});

describe('an output flag after `--`', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-out-flag-'));

  it.each([
    ['codegen', ['codegen', '--', 'node', 'dist/server.js', '-o', join(dir, 'tools.ts')]],
    [
      'contract snapshot',
      ['contract', 'snapshot', '--', 'node', 'dist/server.js', '-o', join(dir, 'c.json')],
    ],
    ['record', ['record', '--', 'node', 'dist/server.js', '--out', join(dir, 'r.jsonl')]],
  ])('is refused by %s as a usage error naming the flag, and nothing is written', async (_, argv) => {
    await expect(runDevTool(argv)).rejects.toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/`(-o|--out)` comes after `--`.*before `--`/),
    });
    expect(existsSync(argv.at(-1) ?? '')).toBe(false);
  });

  it('is refused by registry-json when it writes no file', () => {
    expect(() => parseRegistryJsonCommand(['--', 'node', 'server.js', '--out', 'server.json'])).toThrow(
      /`--out` comes after `--`/,
    );
  });

  it('only warns, naming the flag, when mcpkit writes its own file (the server may take -o)', () => {
    const warnings: string[] = [];
    const argv = ['-o', 'types.ts', '--', 'python', 'server.py', '-o', 'log.txt'];
    checkOutFlag('codegen', argv, { out: 'types.ts', short: true, warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      expect.stringMatching(/warning: `-o` after `--` goes to the server's command/),
    ]);
  });

  it('leaves a server argv without an output flag alone', () => {
    const warnings: string[] = [];
    checkOutFlag('codegen', ['--', 'node', 'server.js', '--port', '3'], {
      out: undefined,
      short: true,
      warn: (w) => warnings.push(w),
    });
    expect(warnings).toEqual([]);
  });
});
