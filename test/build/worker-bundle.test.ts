/**
 * A Cloudflare Worker built on mcpkit carries no ajv and no re2js: Workers refuse the code ajv
 * generates, so there every schema is interpreted, and package.json "imports" maps
 * `#compiled-engine` to a module without ajv and `#pattern-engine` to the platform-RegExp
 * engine (native-engine.ts) under the `workerd` and `worker` conditions.
 * The Worker is bundled as wrangler does (esbuild, conditions workerd, worker, browser) from
 * the built dist/, and the bundle's inputs are read: a content check, not a timing; its gzip size is
 * compared with the official SDK's Worker for the same server, bundled alike.
 */
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** A one-tool server as the Workers guide writes it: `createWorker`, a zod input schema. */
const WORKER = `
import { z } from 'zod';
import { createWorker } from './dist/src/integrations/cloudflare/index.js';
import { createServer } from './dist/src/server/index.js';
export default createWorker(() => {
  const server = createServer({ name: 'worker', version: '0.0.0' });
  server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  return server;
});
`;

/**
 * The official SDK v2's Worker for the same server, as its documentation gives it for fetch
 * runtimes (bench/workers/official-worker.ts, the cold-start benchmark's).
 */
const OFFICIAL = `
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'worker', version: '0.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
export default { fetch: (request) => handler.fetch(request) };
`;

/** Bundles `contents` as wrangler does (no minification: wrangler's default) under `conditions`. */
function bundle(contents: string, conditions: string[]) {
  return build({
    stdin: { contents, resolveDir: root, sourcefile: 'worker.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    conditions,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

/** The modules (paths relative to the repository) a bundle of WORKER holds under `conditions`. */
async function bundledModules(conditions: string[]): Promise<string[]> {
  return Object.keys((await bundle(WORKER, conditions)).metafile.inputs);
}

const ajvCode = (modules: string[]) => modules.filter((m) => /node_modules\/ajv\/.*\.js$/.test(m));
const re2Code = (modules: string[]) => modules.filter((m) => /node_modules\/re2js\//.test(m));

describe('the Worker bundle of a one-tool server', () => {
  it('holds no ajv code under the workerd conditions (wrangler’s), nor the compiled engine', async () => {
    const modules = await bundledModules(['workerd', 'worker', 'browser']);
    expect(ajvCode(modules)).toEqual([]);
    expect(modules.filter((m) => m.includes('dist/src/validation/ajv-engine.js'))).toEqual([]);
    expect(modules).toContain(join('dist/src/validation/ajv-absent.js'));
    // The interpreter it validates with is there.
    expect(modules.some((m) => m.startsWith('dist/src/chunks/'))).toBe(true);
  });

  it('holds no ajv code under the worker condition alone (other Workers bundlers)', async () => {
    expect(ajvCode(await bundledModules(['worker', 'browser']))).toEqual([]);
  });

  it('holds no re2js under either Workers condition: patterns run on the platform RegExp there', async () => {
    for (const conditions of [
      ['workerd', 'worker', 'browser'],
      ['worker', 'browser'],
    ]) {
      const modules = await bundledModules(conditions);
      expect(re2Code(modules)).toEqual([]);
      expect(modules).toContain(join('dist/src/validation/native-engine.js'));
    }
    // Elsewhere the linear-time engine is the one bundled: the check can fail.
    expect(re2Code(await bundledModules(['browser'])).length).toBeGreaterThan(0);
  });

  it('still holds ajv where code generation works (no Workers condition): the check can fail', async () => {
    expect(ajvCode(await bundledModules(['browser'])).length).toBeGreaterThan(0);
  });

  it('is no bigger gzipped than the official SDK’s Worker for the same server (issue 33)', async () => {
    const gzipped = async (contents: string) =>
      gzipSync((await bundle(contents, ['workerd', 'worker', 'browser'])).outputFiles[0]!.contents).length;
    const [ours, official] = await Promise.all([gzipped(WORKER), gzipped(OFFICIAL)]);
    // 2026-12-07: 195.7 KiB against 199.8 KiB (wrangler 4.164's deploy bundle: 207.1 against 209.1).
    expect(ours).toBeLessThanOrEqual(official);
  });
});
