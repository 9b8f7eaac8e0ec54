import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // package.json "imports" name dist/ files; tests run the sources.
    alias: { '#compiled-engine': fileURLToPath(new URL('src/validation/ajv-engine.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'servers/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
