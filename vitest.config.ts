import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Every test file of the repository. */
const ALL = ['src/**/*.test.ts', 'servers/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * The `integration` project: files that start a browser (chromium), `npm pack`, a Python venv,
 * workerd or the other runtimes, redis-server, the built CLI or servers (`dist/`), the
 * official reference servers, or that read the Debian JSON-Schema-Test-Suite or the built
 * declarations; and anything that takes more than a few seconds. Everything else is `unit`:
 * plain values, the in-memory pair and in-process HTTP, with no build and no Debian package.
 */
const INTEGRATION = [
  'test/api/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/perf/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/build/**/*.test.ts',
  'test/check/**/*.test.ts',
  'test/docs/code-blocks.test.ts',
  'test/examples/**/*.test.ts',
  'test/fleet/**/*.test.ts',
  'test/interop/**/*.test.ts',
  'test/reference-servers/**/*.test.ts',
  'test/middleware/**/*.test.ts',
  'test/migrate/**/*.test.ts',
  'test/runtimes/**/*.test.ts',
  'test/transport-contract.test.ts',
  'test/hostile/evil-server.test.ts',
  'test/http/listen-shutdown.test.ts',
  'test/support/pack-cache.test.ts',
  'src/cli/ui/{apps,forms,inspector,login-flow,partial-lists,form-layout,network,deep-link}.test.ts',
  'src/cli/ui/{tasks,tasks-fleet,settings,disconnected}.test.ts',
  'src/cli/{auth,card,check,codegen,codegen-input,contract,failures,main,partial-lists}.test.ts',
  'src/cli/{registry-json,serve-openapi}.test.ts',
  'src/cli/dev/dev.test.ts',
  'src/cli/record/**/*.test.ts',
  'src/cli/replay/**/*.test.ts',
  'src/integrations/redis/**/*.test.ts',
  'src/server/no-codegen.test.ts',
  'src/validation/suite.test.ts',
];

export default defineConfig({
  resolve: {
    // package.json "imports" name dist/ files; tests run the sources.
    alias: {
      '#compiled-engine': fileURLToPath(new URL('src/validation/ajv-engine.ts', import.meta.url)),
      '#pattern-engine': fileURLToPath(new URL('src/validation/re2-engine.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ALL, exclude: [...configDefaults.exclude, ...INTEGRATION] },
      },
      {
        extends: true,
        // Builds dist/ and installs the Debian packages these tests drive (test/global-setup.ts).
        test: { name: 'integration', include: INTEGRATION, globalSetup: ['test/global-setup.ts'] },
      },
    ],
  },
});
