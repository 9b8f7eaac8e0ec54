/**
 * Every TypeScript block of README.md and docs/ compiles against the packed package in a fresh
 * project set up as getting-started says, and every `runnable` block runs and prints what its
 * `text output` block shows (the convention: docs/README.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockName,
  type Fence,
  fencesOf,
  freshProject,
  isChecked,
  markdownFiles,
  pageFolder,
  PROJECT_TSCONFIG,
} from '../support/doc-blocks.js';
import {
  cachedTarball,
  cleanBefore,
  digestOf,
  packDigest,
  recordClean,
  toolchainDigest,
} from '../support/pack-cache.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const RUN_TIMEOUT_MS = 30_000;

interface Block {
  readonly fence: Fence;
  /** The block's path in the project, relative to it (`blocks/<page>/<name>.ts`). */
  readonly path: string;
  /** The `text output` fence right after it, if any. */
  readonly expected: string | undefined;
}

/** Every checked block of every page, with where it is written and what it should print. */
function collect(): Block[] {
  const blocks: Block[] = [];
  for (const file of markdownFiles(ROOT)) {
    const fences = fencesOf(file, readFileSync(join(ROOT, file), 'utf8'));
    fences.forEach((fence, i) => {
      if (!isChecked(fence)) return;
      const next = fences[i + 1];
      const expected = next?.lang === 'text' && next.attrs.includes('output') ? next.code : undefined;
      blocks.push({ fence, path: `blocks/${pageFolder(file)}/${blockName(fence)}`, expected });
    });
  }
  return blocks;
}

/** tsc's messages, each turned from the project's file back to the page's line. */
function typeCheck(project: string, blocks: readonly Block[]): string[] {
  const result = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  const byPath = new Map(blocks.map((block) => [block.path, block.fence]));
  return result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = /^(\S+?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
      const fence = at ? byPath.get(at[1] ?? '') : undefined;
      if (!at || !fence) return line;
      return `${fence.file}:${fence.line + Number(at[2])}:${at[3]} ${at[4]}`;
    });
}

/** Runs one compiled block in its page's folder; resolves with its exit status and output. */
function run(
  project: string,
  block: Block,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const js = block.path.replace(/^blocks\//, 'out/blocks/').replace(/\.ts$/, '.js');
  const child = spawn(process.execPath, [join(project, js)], { cwd: dirname(join(project, js)) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const normalise = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();

const blocks = collect();
const runnable = blocks.filter((block) => block.fence.attrs.includes('runnable'));
let project = '';
let problems: string[] = [];

/**
 * Everything the type-check's verdict depends on: the packed files, the compiler and the
 * locked dependencies, the prelude, the tsconfig, and every block's path and code.
 */
function checkKey(): string {
  const prelude = readFileSync(join(ROOT, 'docs', '.vitepress', 'prelude.d.ts'));
  const sources = blocks.flatMap((block) => [block.path, block.fence.code]);
  return digestOf([
    packDigest(ROOT),
    toolchainDigest(ROOT),
    prelude,
    JSON.stringify(PROJECT_TSCONFIG),
    ...sources,
  ]);
}

beforeAll(async () => {
  project = freshProject(ROOT, await cachedTarball(ROOT));
  copyFileSync(join(ROOT, 'docs', '.vitepress', 'prelude.d.ts'), join(project, 'prelude.d.ts'));
  for (const block of blocks) {
    mkdirSync(dirname(join(project, block.path)), { recursive: true });
    writeFileSync(join(project, block.path), `${block.fence.code}\nexport {};\n`);
  }
  // Inputs checked clean before need no second tsc run: their emitted JavaScript is restored.
  const key = checkKey();
  if (cleanBefore(ROOT, 'blocks', key, join(project, 'out'))) return;
  problems = typeCheck(project, blocks);
  if (problems.length === 0) recordClean(ROOT, 'blocks', key, join(project, 'out'));
}, 180_000);

afterAll(() => {
  if (project !== '' && problems.length === 0) rmSync(project, { recursive: true, force: true });
});

describe('the code blocks of README.md and docs/', () => {
  it('are found: every page with TypeScript has its blocks collected', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.some((block) => block.fence.file === 'README.md')).toBe(true);
  });

  it('check in a project set up exactly as getting-started says (type: module, its tsconfig)', () => {
    const fences = fencesOf(
      'docs/getting-started.md',
      readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8'),
    );
    const tsconfig = fences.find(
      (fence) => fence.lang === 'json' && fence.attrs.includes('file=tsconfig.json'),
    );
    const page = JSON.parse(tsconfig?.code ?? '{}') as { compilerOptions: Record<string, unknown> };
    const withoutPaths = ({ outDir: _o, rootDir: _r, ...rest }: Record<string, unknown>) => rest;
    expect(withoutPaths(page.compilerOptions)).toEqual(withoutPaths(PROJECT_TSCONFIG.compilerOptions));
    expect(
      fences.some((fence) => fence.lang === 'sh' && fence.code.includes('npm pkg set type=module')),
    ).toBe(true);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(pkg.type).toBe('module');
  });

  it('every TypeScript block type-checks against the packed package, in one tsc run', () => {
    expect(problems, `in ${project}`).toEqual([]);
  });

  describe.each(runnable.map((block) => [`${block.fence.file}:${block.fence.line}`, block] as const))(
    'runnable block %s',
    (_where, block) => {
      it(
        'exits 0 by itself and prints what the page shows',
        async () => {
          const result = await run(project, block);
          expect(result.code, result.stderr).toBe(0);
          if (block.expected !== undefined) expect(normalise(result.stdout)).toBe(normalise(block.expected));
        },
        RUN_TIMEOUT_MS + 5_000,
      );
    },
  );
});
