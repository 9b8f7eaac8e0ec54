// Builds the inspector web app into dist/ui, where `mcpkit inspect --ui` serves it from.
// Preact's JSX through Vite's own transform; everything bundled, nothing loaded from the network.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
    reportCompressedSize: false,
  },
});
