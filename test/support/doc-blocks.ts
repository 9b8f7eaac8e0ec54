/**
 * The code blocks of README.md and docs/ (the convention is docs/README.md): finds the fenced
 * blocks of a Markdown file, and lays out the fresh project every TypeScript block is
 * type-checked in, as docs/getting-started.md sets one up (`"type": "module"`, the packed
 * tarball, a strict NodeNext tsconfig).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** One fenced block of a Markdown file. */
export interface Fence {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The language: the info string's first word (`ts`, `sh`, `text`). */
  readonly lang: string;
  /** The info string's other words (`runnable`, `no-check`, `output`, `file=server.ts`). */
  readonly attrs: readonly string[];
  /** The content, without the fence lines and without the fence's indentation. */
  readonly code: string;
}

const OPENER = /^( *)(`{3,}|~{3,})\s*([^`]*)$/;

/** Every fenced block of `text`, in order; a fence inside a longer one is content. */
export function fencesOf(file: string, text: string): Fence[] {
  const lines = text.split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENER.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', marker = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? '';
      const trimmed = line.trimStart();
      if (trimmed.startsWith(marker) && trimmed.slice(marker.length).trim() === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    const [lang = '', ...attrs] = info.trim().split(/\s+/);
    fences.push({ file, line: i + 1, lang, attrs, code: body.join('\n') });
    i = j;
  }
  return fences;
}

/** Whether a block is TypeScript the check compiles (`ts`/`typescript`, not `no-check`). */
export function isChecked(fence: Fence): boolean {
  return (fence.lang === 'ts' || fence.lang === 'typescript') && !fence.attrs.includes('no-check');
}

/** The Markdown files whose blocks are checked: README.md and docs/**, less generated pages. */
export function markdownFiles(root: string): string[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!['api', '.vitepress', 'node_modules', 'public'].includes(entry.name)) walk(path);
      } else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found.sort();
}

/** The folder a page's blocks are written to (and run in): its path with `/` as `__`. */
export function pageFolder(file: string): string {
  return file.replace(/\.md$/, '').replaceAll('/', '__');
}

/** The file name a block is written as: its `file=NAME.ts`, else `block-<line>.ts`. */
export function blockName(fence: Fence): string {
  const named = fence.attrs.find((attr) => attr.startsWith('file='));
  return named ? named.slice('file='.length) : `block-${fence.line}.ts`;
}

/** The compiler options of getting-started's tsconfig.json, plus where the check emits. */
export const PROJECT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
    rootDir: '.',
  },
  include: ['blocks/**/*.ts', 'prelude.d.ts'],
};

/**
 * A fresh project in a temporary folder: package.json with `"type": "module"`, the tsconfig,
 * mcpkit unpacked from `tarball` into node_modules, and the repository's other installed
 * packages (zod, @types/node, express, …) linked beside it, so nothing is fetched.
 */
export function freshProject(root: string, tarball: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-docs-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'docs-blocks', private: true, type: 'module' }),
  );
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(PROJECT_TSCONFIG, null, 2));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, 'mcpkit'), { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', join(modules, 'mcpkit'), '--strip-components=1']);
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === 'mcpkit' || entry.startsWith('.')) continue;
    symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  return dir;
}

/** `path` of a block file in the project, as `docs/guide/x.md:LINE` for messages. */
export function describeBlock(fence: Fence, project: string, path: string): string {
  return `${fence.file}:${fence.line} (${relative(project, path)})`;
}
