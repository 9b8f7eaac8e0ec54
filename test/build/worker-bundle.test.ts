/**
 * A Cloudflare Worker built on mcpkit carries no ajv and no re2js: Workers refuse the code ajv
 * generates, so there every schema is interpreted, and package.json "imports" maps
 * `#compiled-engine` to a module without ajv and `#pattern-engine` to the platform-RegExp
 * engine (native-engine.ts) under the `workerd` and `worker` conditions.
 * The Worker is bundled as wrangler does (esbuild, conditions workerd, worker, browser) from
 * the built dist/, and the bundle's inputs are read: a content check, not a timing.
 */
import { join, resolve } from 'node:path';
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

/** The modules (paths relative to the repository) a bundle of WORKER holds under `conditions`. */
async function bundledModules(conditions: string[]): Promise<string[]> {
  const result = await build({
    stdin: { contents: WORKER, resolveDir: root, sourcefile: 'worker.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    conditions,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
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
});
