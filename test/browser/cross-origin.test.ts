/**
 * A browser-based host in Debian's chromium: a page served from one origin
 * (`http://127.0.0.1:A`) runs mcpkit's client, bundled for the browser with rolldown, against
 * mcpkit servers on another origin (`http://localhost:B`), both eras: discover, list, a call
 * with progress, an elicitation the page answers, and a listen that receives a list change.
 * Against a server without `cors` the same page fails with an error naming CORS.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createServer } from '../../src/server/index.js';
import { launchBrowser } from '../support/inspector-browser.js';
import type { PageReport } from './page.js';

/** The page script: the client and its dependencies in one browser bundle. */
async function bundlePage(): Promise<string> {
  const input = fileURLToPath(new URL('./page.ts', import.meta.url));
  const build = await rolldown({ input, platform: 'browser', logLevel: 'silent' });
  const { output } = await build.generate({ format: 'esm', codeSplitting: false });
  await build.close();
  return output[0].code;
}

/** Serves the page (its title is the name the page gives when asked) and the bundle. */
async function servePage(script: string): Promise<{ origin: string; server: Server }> {
  const html = '<!doctype html><title>Page</title><script type="module" src="/page.js"></script>';
  const server = createHttpServer((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A dual-era server: progress, an elicitation, and a tool that adds a tool (a list change). */
function definition() {
  const server = createServer({ name: 'browser-test', version: '1.0.0' });
  server.tool('progress', { description: 'Reports progress' }, async (_args, ctx) => {
    for (const p of [1, 2, 3]) ctx.progress(p, { total: 3 });
    return 'progress done';
  });
  server.tool('ask', { description: 'Asks the user' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    } as never);
    return `hello ${String((answer.content as { name?: unknown } | undefined)?.name)}`;
  });
  let grown = 0;
  server.tool('grow', { description: 'Adds a tool' }, () => {
    server.tool(`grown_${++grown}`, { description: 'Grown' }, () => 'grown');
    server.notifyToolsChanged();
    return 'grew';
  });
  return server;
}

let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
let pageServer: Server;
let withCors: Served;
let withoutCors: Served;

beforeAll(async () => {
  const served = await servePage(await bundlePage());
  pageServer = served.server;
  const http = { cors: { origins: [served.origin] } };
  withCors = await serve(definition(), { port: 0, host: 'localhost', http });
  withoutCors = await serve(definition(), { port: 0, host: 'localhost' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  page = await browser.newPage();
  await page.goto(served.origin);
  await page.waitForFunction(() => 'mcpRun' in globalThis);
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await withCors?.close();
  await withoutCors?.close();
  pageServer?.close();
});

const runIn = (url: string, era: 'modern' | 'legacy'): Promise<PageReport> =>
  page.evaluate(
    (u, e) =>
      (globalThis as unknown as { mcpRun: (u: string, e: string) => Promise<PageReport> }).mcpRun(u, e),
    url,
    era,
  );

describe('a browser page on another origin', () => {
  it.each(['modern', 'legacy'] as const)('uses a CORS-enabled server, %s era', async (era) => {
    const url = withCors.url;
    expect(new URL(url).origin).not.toBe(new URL(page.url()).origin);
    const report = await runIn(url, era);
    expect(report.error).toBeUndefined();
    if (era === 'modern') expect(report.discovered).toContain('2026-07-28');
    expect(report.tools).toEqual(expect.arrayContaining(['progress', 'ask', 'grow']));
    expect(report.progress).toEqual([1, 2, 3]);
    expect(report.called).toMatchObject({ content: [{ text: 'progress done' }] });
    expect(report.elicited).toBe('Your name?');
    expect(report.answered).toMatchObject({ content: [{ text: 'hello Page' }] });
    expect(report.notified).toBe('notifications/tools/list_changed');
  });

  it.each(['modern', 'legacy'] as const)(
    'fails against a server without CORS, naming CORS (%s era)',
    async (era) => {
      const report = await runIn(withoutCors.url, era);
      expect(report.error).toMatch(/could not reach http:\/\/localhost:\d+\/mcp: .*possibly blocked by CORS/);
    },
  );
});
