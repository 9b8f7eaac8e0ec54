/**
 * The web entry points (DESIGN decision 2): each bundles with esbuild for the browser platform,
 * which fails on any Node built-in the built files reach, and its module code, run in a realm
 * that has only web-platform globals, neither reads a Node global (`process`, `Buffer`) nor does
 * what workerd refuses in global scope (timers, I/O, random values, `new AbortController()`).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { default: string }>;
};

/** The subpaths that claim to run on any runtime: no Node built-in, nothing refused at load. */
const WEB_ENTRIES = [
  '.',
  './server',
  './client',
  './apps',
  './skills',
  './server-card',
  './http',
  './auth',
  './otel',
  './cloudflare',
];

async function browserBundle(subpath: string): Promise<{ code: string; inputs: string[] }> {
  const target = pkg.exports[subpath];
  if (!target) throw new Error(`package.json has no export ${subpath}`);
  const result = await build({
    entryPoints: [join(root, target.default)],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

/** An error thrown by an operation a strict runtime refuses while a module loads. */
class Refused extends Error {}

/** Web-platform globals, with the operations workerd refuses in global scope replaced by throws. */
function strictRealm(): object {
  const refuse = (what: string) => () => {
    throw new Refused(`${what} called in global scope`);
  };
  const crypto = {
    getRandomValues: refuse('crypto.getRandomValues'),
    randomUUID: refuse('crypto.randomUUID'),
    subtle: new Proxy({}, { get: (_, name) => refuse(`crypto.subtle.${String(name)}`) }),
  };
  const AbortController = function AbortController() {
    throw new Refused('new AbortController() called in global scope');
  };
  const AbortSignal = { timeout: refuse('AbortSignal.timeout'), any: refuse('AbortSignal.any') };
  const timers = ['setTimeout', 'setInterval', 'fetch'].map((name) => [name, refuse(name)]);
  const { URL, URLSearchParams, TextEncoder, TextDecoder, Headers, Request, Response } = globalThis;
  const { ReadableStream, WritableStream, TransformStream, Event, EventTarget, DOMException } = globalThis;
  const { atob, btoa, structuredClone, clearTimeout, clearInterval, console, queueMicrotask } = globalThis;
  return {
    ...Object.fromEntries(timers),
    ...{ URL, URLSearchParams, TextEncoder, TextDecoder, Headers, Request, Response },
    ...{ ReadableStream, WritableStream, TransformStream, Event, EventTarget, DOMException },
    ...{ atob, btoa, structuredClone, clearTimeout, clearInterval, console, queueMicrotask },
    performance: globalThis.performance,
    crypto,
    AbortController,
    AbortSignal,
  };
}

describe('web entry points', () => {
  it.each(WEB_ENTRIES)('bundles %s for the browser with no Node built-in', async (subpath) => {
    const { inputs } = await browserBundle(subpath);
    expect(inputs.filter((input) => /^node:|^(fs|path|http|module|crypto|os)$/.test(input))).toEqual([]);
    expect(inputs.some((input) => input.includes('dist/src/'))).toBe(true);
  });

  it.each(WEB_ENTRIES)(
    'loads %s reading no Node global and doing nothing a strict runtime refuses',
    async (subpath) => {
      const { code } = await browserBundle(subpath);
      const realm = createContext(strictRealm());
      expect(() => runInContext(code, realm, { filename: `${subpath}.bundle.js` })).not.toThrow();
    },
  );

  it('the strict realm refuses what it claims to (a module-scope AbortController, a process read)', () => {
    const realm = createContext(strictRealm());
    expect(() => runInContext('new AbortController()', realm)).toThrow(/global scope/);
    expect(() => runInContext('process.platform', realm)).toThrow(/process is not defined/);
    expect(() => runInContext('new URL("http://a/").host', realm)).not.toThrow();
  });
});
