/**
 * The package's dependency list holds only what its SDK subpaths use (issue 33, DESIGN
 * decision 1): each dependency is named below with the subpath that needs it, and each is
 * imported by the built code of a package.json "exports" target. What only the CLI, OpenAPI,
 * tool search, the fetch reference server or the dev tools use is an optional peer dependency, loaded by `import()` on
 * first use (core/optional.ts says what to install), so importing any subpath or starting
 * the CLI never needs it. Reads the built dist/ (npm test builds it first).
 */
import { readFileSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { default: string; types: string }>;
  imports: Record<string, Record<string, string>>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every runtime dependency, with the subpath that needs it and why. */
const ALLOWED: Record<string, string> = {
  ajv: 'mcpkit/server, mcpkit/client: JSON Schema validation, compiled (Node, Bun, Deno)',
  'ajv-formats': 'mcpkit/server, mcpkit/client: JSON Schema `format` checks, on both engines',
  re2js: 'mcpkit/server, mcpkit/client: linear-time `pattern`s and zod `.regex()`, URI templates',
  'eventsource-parser': 'mcpkit/client: SSE responses and the legacy HTTP+SSE transport',
  jose: 'mcpkit/auth: JWT and JWKS verification, DPoP',
  oauth4webapi: 'mcpkit/auth: the OAuth client and token introspection',
  yaml: 'mcpkit/server, mcpkit/client: SKILL.md frontmatter of the Skills extension',
  '@standard-schema/spec': 'mcpkit/server, mcpkit/client: the Standard Schema types in the .d.ts files',
};

/** Optional peers that only one feature loads, by `import()` when it is used. */
const LOADED_ON_USE = [
  '@apidevtools/swagger-parser',
  'minisearch',
  'fastest-levenshtein',
  'ts-morph',
  'json-schema-to-typescript',
  'esbuild',
  'smol-toml',
  // The fetch reference server (servers/fetch/deps.ts), loaded when `mcpkit serve fetch` starts.
  'undici',
  'linkedom',
  '@mozilla/readability',
  'turndown',
  'robots-parser',
  // The filesystem reference server (servers/filesystem/deps.ts), loaded when it is created.
  'minimatch',
  'diff',
];

const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec);

/** The specifiers a built module imports: `static` (import/export from), `dynamic` (import()). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const code = readFileSync(file, 'utf8');
  const staticSpecs = [
    ...code.matchAll(
      /(?:^|[;\s])(?:import|export)\b[^;'"`]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm,
    ),
  ];
  const dynamicSpecs = [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)];
  return { static: staticSpecs.map((m) => (m[1] ?? m[2])!), dynamic: dynamicSpecs.map((m) => m[1]!) };
}

/** Bare packages reached from `entries` (following relative imports, static and dynamic). */
function reached(entries: string[], follow: 'static' | 'all'): { packages: Set<string>; files: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file) || !existsSync(file)) continue;
    files.add(file);
    const found = importsOf(file);
    for (const spec of follow === 'all' ? [...found.static, ...found.dynamic] : found.static) {
      if (spec.startsWith('.'))
        queue.push(resolve(dirname(file), file.endsWith('.d.ts') ? spec.replace(/\.js$/, '.d.ts') : spec));
      else if (spec.startsWith('#'))
        queue.push(
          ...Object.values(pkg.imports[spec] ?? {})
            .filter((t) => t.endsWith('.js'))
            .map((t) => join(root, t)),
        );
      else if (!isBuiltin(spec)) packages.add(packageOf(spec));
    }
  }
  return { packages, files };
}

const sdkEntries = Object.values(pkg.exports).map((target) => join(root, target.default));
const typeEntries = Object.values(pkg.exports).map((target) => join(root, target.types));

describe('the package’s dependencies', () => {
  it('are exactly the allowlisted ones, each with the subpath that needs it', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('are each imported by an SDK subpath’s built code (or, for types, its declarations)', () => {
    const used = reached(sdkEntries, 'all').packages;
    const typed = reached(typeEntries, 'static').packages;
    for (const name of Object.keys(pkg.dependencies))
      expect(used.has(name) || typed.has(name), name).toBe(true);
  });

  it('cover every package the SDK subpaths import; the rest are optional peers loaded on use', () => {
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const used = reached(sdkEntries, 'all').packages;
    expect([...used].filter((name) => !declared.has(name))).toEqual([]);
    for (const name of LOADED_ON_USE) expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
  });

  it('never load an optional feature package at import: not from any subpath, not from the CLI’s start', () => {
    const entries = [...sdkEntries, ...Object.values(pkg.bin).map((target) => join(root, target))];
    const loaded = reached(entries, 'static').packages;
    expect(LOADED_ON_USE.filter((name) => loaded.has(name))).toEqual([]);
  });
});
