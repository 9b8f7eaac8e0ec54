/**
 * The bundled dist/ that `npm run build` writes (scripts/bundle.mjs): every package entry point
 * sits at its path, each source module exists in exactly one built file (so a class is one
 * class across entry points), tsc's internal .js files are gone, and the stdio server's
 * static import graph reaches no dependency (they load on first use).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { default: string }>;
  imports: Record<string, Record<string, string>>;
  bin: Record<string, string>;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const built = [...filesUnder(join(dist, 'src')), ...filesUnder(join(dist, 'servers'))];
const entryFiles = [
  ...Object.values(pkg.exports).map((target) => join(root, target.default)),
  ...Object.values(pkg.bin).map((target) => join(root, target)),
  // `#compiled-engine` and the like: a bundle per condition's target (types are tsc's).
  ...Object.values(pkg.imports).flatMap((conditions) =>
    Object.entries(conditions)
      .filter(([condition]) => condition !== 'types')
      .map(([, target]) => join(root, target)),
  ),
];

/** The files a module statically imports, relative ones resolved; bare specifiers as they are. */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    return spec.startsWith('.') ? resolve(dirname(file), spec) : spec;
  });
}

describe('bundled dist', () => {
  it('has every package.json "exports" and "imports" target and the bin at its path', () => {
    for (const file of entryFiles) expect(existsSync(file), file).toBe(true);
    expect(existsSync(join(dist, 'servers/everything/main.js'))).toBe(true);
  });

  it('holds each source module in one built file only (shared code lives in shared chunks)', () => {
    const owner = new Map<string, string>();
    for (const map of built.filter((file) => file.endsWith('.js.map'))) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const absolute = resolve(dirname(map), source);
        expect(owner.get(absolute), `${absolute} is in ${owner.get(absolute)} and ${map}`).toBeUndefined();
        owner.set(absolute, map);
      }
    }
    expect(owner.has(join(root, 'src/core/errors.ts'))).toBe(true);
  });

  it('keeps no unbundled tsc output next to the bundles', () => {
    const js = built.filter((file) => file.endsWith('.js'));
    const chunks = join(dist, 'src/chunks');
    const stray = js.filter(
      (file) =>
        !file.startsWith(chunks) &&
        !entryFiles.includes(file) &&
        !/servers\/[^/]+\/(main|server)\.js$/.test(file),
    );
    expect(stray).toEqual([]);
    expect(js.filter((file) => file.startsWith(chunks)).length).toBeGreaterThan(0);
  });

  it('loads no dependency when importing mcpkit/server and mcpkit/stdio (they load on first use)', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const queue = ['server/index.js', 'integrations/stdio/index.js'].map((p) => join(dist, 'src', p));
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of staticImports(file)) {
        if (target.startsWith('/')) queue.push(target);
        else bare.add(target);
      }
    }
    expect([...bare].filter((spec) => !spec.startsWith('node:'))).toEqual([]);
    expect(bare.has('node:http')).toBe(false);
    // Two entry files and the core, server and stdio chunks (stdio is Node-only, so not in server's).
    expect(seen.size).toBeLessThanOrEqual(5);
  });

  it('shares one WireError class between mcpkit, mcpkit/server, mcpkit/client and mcpkit/testing', async () => {
    const load = async <T>(path: string): Promise<T> =>
      (await import(pathToFileURL(join(dist, path)).href)) as T;
    const core = await load<typeof import('../../src/core/index.js')>('src/core/index.js');
    const server = await load<typeof import('../../src/server/index.js')>('src/server/index.js');
    const client = await load<typeof import('../../src/client/index.js')>('src/client/index.js');
    const testing = await load<typeof import('../../src/testing/index.js')>('src/testing/index.js');
    const [clientEnd, serverEnd] = testing.createLinkedPair();
    const connection = await server.connect(server.createServer({ name: 'one', version: '1' }), serverEnd);
    const peer = client.createClient({ name: 'c', version: '1' });
    await peer.connect(clientEnd);
    const failure: unknown = await peer.callTool('missing', {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(core.WireError);
    await peer.close();
    await connection.close();
  });
});
