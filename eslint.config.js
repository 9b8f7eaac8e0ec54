import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The one-way import rule of STYLE.md: each layer lists the folders it must not import. */
const layers = [
  {
    files: ['src/core/**'],
    banned: ['validation', 'server', 'client', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
  {
    files: ['src/validation/**'],
    banned: ['server', 'client', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
  {
    files: ['src/server/**'],
    banned: ['client', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
  {
    files: ['src/client/**'],
    banned: ['server', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
  { files: ['src/integrations/**'], banned: ['cli', 'testing', 'check', 'contract'], node: false },
  // Workers run without nodejs_compat: no node: module.
  { files: ['src/integrations/cloudflare/**'], banned: ['cli', 'testing', 'check', 'contract'], node: true },
  { files: ['src/auth/**'], banned: ['integrations', 'cli', 'testing', 'check', 'contract'], node: true },
  { files: ['src/host/**'], banned: ['cli', 'testing', 'check', 'contract'], node: false },
  { files: ['src/otel/**'], banned: ['integrations', 'cli', 'testing', 'check', 'contract'], node: true },
  {
    files: ['src/openapi/**'],
    banned: ['client', 'host', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
  {
    files: ['src/tool-search/**'],
    banned: ['client', 'host', 'integrations', 'cli', 'testing', 'check', 'contract'],
    node: true,
  },
];

const layerRules = layers.map(({ files, banned, node }) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: banned.map((b) => `**/${b}/**`),
            message: 'Imports point one way (STYLE.md): top → integrations → server | client → core.',
          },
          ...(node
            ? [
                {
                  group: ['node:*'],
                  message: 'Node-only code sits behind a named subpath (src/integrations).',
                },
              ]
            : []),
        ],
      },
    ],
  },
}));

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * The layer a file belongs to: `src/<layer>`, with `server/http` (the `mcpkit/http` subpath)
 * and each `integrations/<name>` a layer of its own; sub-folders that are no subpath
 * (`client/http`, `server/legacy`, `server/tasks`, `host/gateway`, `auth/server`, …) belong
 * to their parent. Files outside `src/` (servers, bench, examples) are each their own caller.
 */
function layerOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep);
  if (rel[0] !== 'src') return rel.slice(0, 2).join('/');
  if (rel[1] === 'integrations' || (rel[1] === 'server' && rel[2] === 'http'))
    return rel.slice(1, 3).join('/');
  return rel[1];
}

/** Entry points another layer may import: the public face and the internal face for siblings. */
const ENTRY_FILES = new Set(['index.js', 'index.ts', 'runtime.js', 'runtime.ts']);
/** The CLI sits on top and uses public entries only (STYLE.md), never a `runtime.ts` face. */
const PUBLIC_ONLY = new Set(['cli']);
/**
 * CLI files that still import core/runtime.ts, each for a protocol primitive no public entry
 * offers and no user of the library needs: stdio line framing (record, replay), the JSON-RPC
 * envelope check (replay's play), the optional-dependency loader (replay) and the JSON depth
 * bound (json-file). Making them public would widen the API for the CLI alone, so the list
 * stays closed: no new CLI file may join it. (The inspector's list-changed filter is public
 * in `mcpkit/client`; session.ts states the JSON-RPC server-error range and the timer bound.)
 */
const CLI_RUNTIME_USERS = new Set(
  [
    'src/cli/json-file.ts',
    'src/cli/record/command.ts',
    'src/cli/replay/command.ts',
    'src/cli/replay/play.ts',
  ].map((file) => path.join(ROOT, file)),
);
/**
 * Public entries that are not a layer's index.ts (`mcpkit/apps` is src/core/apps.ts): each
 * package.json "exports" target, as its source file.
 */
const PUBLIC_ENTRIES = new Set(
  Object.values(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).exports).map((target) =>
    path.join(ROOT, target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')),
  ),
);
/** What the reference servers share (their stdio entry): a folder of servers/ that is no server. */
const SERVERS_SHARED = 'servers/shared';
/** A reference server's entry for other code: its factory (scripts/bundle.mjs builds it as one). */
const SERVER_ENTRY_FILES = new Set(['server.js', 'server.ts']);

/**
 * `mcpkit/layer-entry`: across layers only a public entry (`src/<layer>/index.ts`, or another
 * package.json "exports" target) or `src/<layer>/runtime.ts` may be imported (the CLI: public
 * entries only), and of a reference server only `servers/<name>/server.ts` (other servers
 * may also import `servers/shared/`). A local rule because `no-restricted-imports` matches
 * the specifier text, and `../server.js` from `src/server/http/` names no folder a pattern
 * could catch.
 */
const layerEntry = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      internal: "'{{spec}}' is inside {{target}}: import its entry point (STYLE.md).",
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), spec);
      const top = path.relative(ROOT, target).split(path.sep)[0];
      if (top !== 'src' && top !== 'servers') return;
      const to = layerOf(target);
      if (to === from) return;
      const entries = top === 'src' ? ENTRY_FILES : SERVER_ENTRY_FILES;
      const entryDir = path.join(ROOT, ...(top === 'src' ? ['src'] : []), ...to.split('/'));
      const base = path.basename(target);
      if (PUBLIC_ENTRIES.has(target.replace(/\.js$/, '.ts'))) return;
      if (PUBLIC_ONLY.has(from) && base.startsWith('runtime.') && !CLI_RUNTIME_USERS.has(context.filename)) {
        context.report({ node: node.source, messageId: 'internal', data: { spec, target: to } });
        return;
      }
      if (entries.has(base) && path.dirname(target) === entryDir) return;
      if (from.startsWith('servers/') && to === SERVERS_SHARED) return;
      context.report({ node: node.source, messageId: 'internal', data: { spec, target: to } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** Non-test TypeScript the size, parameter and promise rules hold for (STYLE.md rule 8). */
const SOURCE = ['src/**/*.ts', 'servers/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'];
const TESTS = ['**/*.test.ts', 'test/**'];

/**
 * Exceptions to the size and parameter caps: [file, rules turned off]. The comment above
 * each group is the reason; a file without a written reason gets no exception.
 */
const SIZE_EXCEPTIONS = [
  // page(list, items, params, size, key) and findCompleter(f, ref, arg, era) run on every list
  // and completion request: an options object would be one more allocation per request.
  ['src/server/features.ts', 'max-params'],
  // paginate(list, items, cursor, pageSize): the same list path, called once per list request.
  ['src/server/pagination.ts', 'max-params'],
  // Client is one cohesive class (a method per MCP request); complete(ref, argument, context,
  // options) mirrors completion/complete's params and is public API.
  ['src/client/client.ts', 'max-lines max-params'],
  // McpServer is the server's one cohesive face (a method per registration kind, plus mount,
  // transform and the announcements); its logic lives in dispatch.ts and catalogue/.
  ['src/server/server.ts', 'max-lines'],
  // The endpoint's one routing story (route → admission → method → era) with its auth and
  // scope-challenge steps; the parts that stand alone (admission, replies, sessions, CORS,
  // the card) already live beside it.
  ['src/server/http/handler.ts', 'max-lines'],
  // One record(figure, impl, run, value) tuple per measurement, at ~40 call sites in bench/.
  ['bench/harness/results.ts', 'max-params'],
  // Measurement helpers whose positional arguments are the figure's coordinates (url, body,
  // headers, listener; era, contender, figure).
  ['bench/harness/http-peer.ts', 'max-params'],
  ['bench/scenarios/first-result.ts', 'max-params'],
  // A flat registration list (one server.tool per fixture, in tools/list order): splitting it
  // would only move the order across functions.
  ['servers/everything/client-tools.ts', 'max-lines-per-function'],
  ['servers/everything/content-tools.ts', 'max-lines-per-function'],
  ['examples/fleet-server.ts', 'max-lines-per-function'],
  // An example reads top to bottom as one story.
  ['examples/limits.ts', 'max-lines-per-function'],
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test/spec/**',
      'scripts/conformance/**',
      'docs/api/**',
      'docs/.vitepress/cache/**',
      'docs/.vitepress/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['src/cli/**', 'servers/**', 'bench/**', 'examples/**', 'scripts/**', 'test/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
  ...layerRules,
  {
    files: SOURCE,
    ignores: TESTS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
    plugins: { mcpkit: { rules: { 'layer-entry': layerEntry } } },
    rules: {
      'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 3],
      '@typescript-eslint/no-floating-promises': 'error',
      'mcpkit/layer-entry': 'error',
    },
  },
  ...SIZE_EXCEPTIONS.map(([file, rules]) => ({
    files: [file],
    rules: Object.fromEntries(rules.split(' ').map((rule) => [rule, 'off'])),
  })),
);
