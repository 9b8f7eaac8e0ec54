#!/usr/bin/env node
// Second step of `npm run build`, after tsc: bundles the package's entry points with rolldown
// so a spawned server loads a few files instead of ~60 modules.
//
// - Entries: every package.json "exports" target, the "bin", dist/servers/*/{main,server}.js, each
//   and every package.json "imports" target (`#compiled-engine`: ajv, or no ajv under the
//   workerd/worker conditions), written at the very path tsc gave it (so `mcpkit/server`, `node dist/servers/everything/
//   main.js` and every import of dist/src/<entry>.js keep working). One build for all of them:
//   code they share sits in shared chunks under dist/src/chunks/, so a module (and each of its
//   classes: `instanceof WireError`) exists once however many entry points a program imports.
// - Dependencies stay external (npm installs them); lazy `import()`s stay lazy chunks. One
//   exception, INLINED: the JSON Schema interpreter a spawned server loads on its first
//   tools/call goes into that lazy chunk (one file loads faster than nine), with its MIT
//   notice on the chunk.
// - The chunks live inside the package, so their bare imports resolve from its node_modules.
// - tsc's .d.ts files stay as they are. The .js (and .json) files tsc wrote for modules of
//   dist/src and dist/servers are deleted: nothing in the package imports them any more, and a
//   program that loaded one next to a bundle would hold two copies of that module (two
//   WireError classes). A stale import of one now fails loudly (ERR_MODULE_NOT_FOUND).
//   dist/bench, dist/examples and dist/test stay tsc's output and import only entry points
//   (except test/support's client- and http-harness, which only vitest loads, from sources).
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const CHUNKS = 'src/chunks';

/** Entry name (its path under dist/ without .js) -> its TypeScript source. */
function entries() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const targets = [...Object.values(pkg.exports).map((e) => e.default), ...Object.values(pkg.bin)];
  // Package imports ("#compiled-engine"): each condition's target, loaded by `import('#…')`.
  for (const conditions of Object.values(pkg.imports ?? {})) {
    for (const [condition, target] of Object.entries(conditions))
      if (condition !== 'types') targets.push(target);
  }
  // A reference server: its executable main.js and its factory server.js (examples import it).
  for (const name of readdirSync(join(root, 'servers'))) {
    if (!existsSync(join(root, 'servers', name, 'main.ts'))) continue; // servers/shared: no server
    targets.push(`./dist/servers/${name}/main.js`, `./dist/servers/${name}/server.js`);
  }
  const out = {};
  for (const target of targets) {
    const name = target.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
    out[name] = join(root, `${name}.ts`);
  }
  return out;
}

/**
 * Stops the build when bundling renamed a class (two modules declaring the same class name):
 * its `name` would change, and error names and stack traces with it. Functions may be renamed.
 */
function renamedClasses(output) {
  for (const file of output) {
    const renamed = file.type === 'chunk' && /\bclass ([A-Za-z_$][\w$]*\$\d+)\b/.exec(file.code);
    if (renamed)
      throw new Error(
        `bundle: class ${renamed[1]} in ${file.fileName} was renamed; rename one of the classes`,
      );
  }
}

/** Every file under `dir`, recursively. */
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Dependencies bundled into the (lazy) chunk that imports them, with their license notice. */
const INLINED = {
  '@cfworker/json-schema':
    '@cfworker/json-schema (https://github.com/cfworker/cfworker), MIT License, Copyright (c) Jeremy Danyow.\n' +
    'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and\n' +
    'associated documentation files (the "Software"), to deal in the Software without restriction, including\n' +
    'without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell\n' +
    'copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the\n' +
    'following conditions: The above copyright notice and this permission notice shall be included in all\n' +
    'copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY\n' +
    'KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A\n' +
    'PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY\n' +
    'CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF\n' +
    'OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.',
};

/** The license notices of the INLINED packages a chunk holds, as a leading comment. */
function notices(chunk) {
  const held = Object.entries(INLINED).filter(([name]) =>
    chunk.moduleIds.some((id) => id.includes(`/node_modules/${name}/`)),
  );
  return held.map(([, notice]) => `/*!\n${notice}\n*/`).join('\n');
}

const input = entries();
rmSync(join(dist, CHUNKS), { recursive: true, force: true });
const result = await build({
  input,
  cwd: root,
  platform: 'node',
  // Bare specifiers and node: builtins: installed dependencies, loaded at run time; `#…`
  // package imports stay imports, resolved (with conditions) by whoever loads the package.
  external: (id) => /^[^./]/.test(id) && !Object.hasOwn(INLINED, id),
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  tsconfig: join(root, 'tsconfig.json'),
  transform: { target: 'es2022' },
  plugins: [
    // A JSON module (the JSON Schema meta-schemas) as one compact string for JSON.parse: smaller
    // than an object literal once re-printed, and faster to parse.
    {
      name: 'json-as-string',
      transform: {
        filter: { id: /\.json$/ },
        handler: (code) => ({
          code: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(code)))});`,
          moduleType: 'js',
          map: { mappings: '' },
        }),
      },
    },
  ],
  logLevel: 'warn',
  output: {
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: `${CHUNKS}/[name]-[hash].js`,
    banner: notices,
    sourcemap: true,
    // Doc comments live in the .d.ts files and the maps' sourcesContent; without them the
    // files a server parses at start-up are ~25% smaller.
    comments: false,
    // Local names shortened and dead branches folded (oxc), keeping every function's and class's
    // `name` (error names, stack frames) and the line structure; the maps lead back to the
    // sources. A bundler re-prints what it bundles (wrangler's esbuild for a Worker), so only
    // this survives into a user's bundle: a one-tool Worker is ~6% smaller gzipped for it.
    minify: {
      compress: true,
      mangle: { keepNames: { function: true, class: true } },
      codegen: { removeWhitespace: false },
    },
    // Few, large shared chunks: a server on stdio loads two entry files and three chunks (core,
    // server, stdio); HTTP adds one (http) and mcpkit/node one more (node, with node:http).
    // Only modules loaded at import ('$initial') are grouped, so lazy `import()`s (safe-regexp,
    // safe-formats, CLI commands) stay chunks of their own. A group also takes the modules its
    // own modules import, so the groups go from the bottom layer up (higher priority first):
    // core, server and http hold only web-platform code, and the Node-only integrations (stdio,
    // node) get chunks of their own, so the web entry points (mcpkit, mcpkit/server,
    // mcpkit/client, mcpkit/http, mcpkit/auth) reach no node: module (test/build/web-entries).
    codeSplitting: {
      groups: [
        // The `#compiled-engine` and `#pattern-engine` targets are entries of their own (ajv and
        // re2js stay out of core, and a Workers bundler picks its own target).
        {
          name: 'core',
          test: /[\\/]src[\\/](core|validation[\\/](?!(ajv-engine|ajv-absent|re2-engine|native-engine)\.ts))/,
          tags: ['$initial'],
          priority: 5,
        },
        { name: 'server', test: /[\\/]src[\\/]server[\\/](?!http[\\/])/, tags: ['$initial'], priority: 4 },
        { name: 'http', test: /[\\/]src[\\/]server[\\/]http[\\/]/, tags: ['$initial'], priority: 3 },
        { name: 'stdio', test: /[\\/]src[\\/]integrations[\\/]stdio[\\/]/, tags: ['$initial'], priority: 2 },
        { name: 'node', test: /[\\/]src[\\/]integrations[\\/]node[\\/]/, tags: ['$initial'], priority: 1 },
      ],
    },
  },
});
renamedClasses(result.output);
// Chunks and their source maps (assets).
const written = new Set(result.output.map((file) => join(dist, file.fileName)));
let removed = 0;
for (const folder of ['src', 'servers']) {
  for (const path of walk(join(dist, folder))) {
    // Keeps tsc's declarations and what rolldown wrote; drops tsc's .js, .js.map (a pure
    // re-export entry has no map of its own) and the .json it copied (bundled now).
    if (path.endsWith('.d.ts') || written.has(path)) continue;
    rmSync(path);
    removed += 1;
  }
}
const chunks = result.output.filter((file) => file.type === 'chunk');
console.error(
  `bundle: ${Object.keys(input).length} entries, ${chunks.length - Object.keys(input).length} shared/lazy chunks ` +
    `in ${relative(root, join(dist, CHUNKS))}/, ${removed} unbundled tsc files removed`,
);
