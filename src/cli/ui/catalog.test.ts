/**
 * The inspector's Servers view in chromium (issue 37): `mcpkit inspect --ui --config FILE`
 * with an `mcpServers` file (mcpkit's everything server over stdio, and over Streamable HTTP
 * on each era; the official SDK v1 server of test/support/fixtures/greeter-v1.mjs over stdio)
 * and with a Registry `server.json`: each server with its transport, connected and
 * disconnected one by one (by keyboard too), the era it speaks, one search over the tools of
 * the connected servers, and Open showing a server in the other views.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createEverythingServer } from '../../../servers/everything/server.js';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const GREETER = fileURLToPath(new URL('../../../test/support/fixtures/greeter-v1.mjs', import.meta.url));
const EVERYTHING = fileURLToPath(new URL('../../../dist/servers/everything/main.js', import.meta.url));

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let http: Served;
let dir: string;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
  http = await serve(createEverythingServer(), { port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-catalog-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string): Promise<{ page: Page; inspector: RunningInspector }> {
  const inspector = await startInspectorCli(['--config', file]);
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
  await page.waitForSelector('[data-test=server-row]');
  return { page, inspector };
}

/** The cells of every catalogue row, by column. */
function rows(page: Page): Promise<Record<string, string>[]> {
  return page.$$eval('[data-test=server-row]', (trs) =>
    trs.map((tr) => ({
      status: tr.getAttribute('data-status') ?? '',
      ...Object.fromEntries(
        Array.from(tr.querySelectorAll('td[data-col]')).map((td) => [
          td.getAttribute('data-col') ?? '',
          td.firstChild?.textContent ?? '',
        ]),
      ),
    })),
  );
}

const row = (name: string) => `[data-test=server-row][data-server="${name}"]`;

async function search(page: Page, query: string): Promise<string[]> {
  await page.$eval('[data-test=catalog-query]', (el) => ((el as HTMLInputElement).value = ''));
  await page.type('[data-test=catalog-query]', query);
  const before = await page.$$eval('[data-test=catalog-hit]', (lis) => lis.map((li) => li.outerHTML).join());
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (html) =>
      Array.from(document.querySelectorAll('[data-test=catalog-hit]'))
        .map((li) => li.outerHTML)
        .join() !== html || document.querySelector('[data-test=servers] p.muted') !== null,
    {},
    before,
  );
  return page.$$eval('[data-test=catalog-hit]', (lis) =>
    lis.map((li) => `${li.getAttribute('data-server')}/${li.getAttribute('data-hit-tool')}`),
  );
}

describe('Servers view of an mcpServers file', () => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => {
    const file = join(dir, 'mcp.json');
    const mcpServers = {
      everything: { command: process.execPath, args: [EVERYTHING] },
      'everything-http': { url: http.url },
      'everything-legacy': { url: http.url, era: 'legacy' },
      'greeter-v1': { type: 'stdio', command: process.execPath, args: [GREETER] },
    };
    writeFileSync(file, JSON.stringify({ mcpServers }));
    ({ page, inspector } = await open(file));
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, 'catalog-failed.png') });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('lists every server with its transport, connects none at start', async () => {
    expect(await page.$eval('[data-test=tab-servers]', (b) => b.classList.contains('active'))).toBe(true);
    expect(await rows(page)).toEqual([
      expect.objectContaining({ name: 'everything', transport: 'stdio', status: 'disconnected' }),
      expect.objectContaining({ name: 'everything-http', transport: 'http', where: http.url }),
      expect.objectContaining({ name: 'everything-legacy', transport: 'http', status: 'disconnected' }),
      expect.objectContaining({ name: 'greeter-v1', transport: 'stdio', status: 'disconnected' }),
    ]);
    expect(await page.$('[data-test=server-info]')).toBeNull();
  });

  it('connects each (one by keyboard) and shows the era it speaks', async () => {
    // Keyboard: focus the first Connect button and press Enter.
    await page.focus(`${row('everything')} [data-test=server-connect]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${row('everything')}[data-status=connected]`);
    for (const name of ['everything-http', 'everything-legacy', 'greeter-v1']) {
      await page.click(`${row(name)} [data-test=server-connect]`);
      await page.waitForSelector(`${row(name)}[data-status=connected]`);
    }
    const byName = Object.fromEntries((await rows(page)).map((r) => [r.name, r]));
    expect(byName.everything?.era).toBe('modern');
    expect(byName['everything-http']?.era).toBe('modern');
    expect(byName['everything-legacy']?.era).toBe('legacy');
    // The official SDK v1 server serves the legacy era only.
    expect(byName['greeter-v1']?.era).toBe('legacy');
    expect(Number(byName['greeter-v1']?.tools)).toBe(2);
    expect(Number(byName.everything?.tools)).toBeGreaterThan(5);
    await page.screenshot({ path: join(ARTIFACTS, 'catalog.png') });
  }, 60_000);

  it('searches the tools of every connected server', async () => {
    const echo = await search(page, 'echo');
    expect(echo).toEqual(
      expect.arrayContaining(['everything/echo', 'everything-http/echo', 'everything-legacy/echo']),
    );
    expect((await search(page, 'who is calling'))[0]).toBe('greeter-v1/greet');
    await page.screenshot({ path: join(ARTIFACTS, 'catalog-search.png') });
    await page.click(`${row('everything-http')} [data-test=server-disconnect]`);
    await page.waitForSelector(`${row('everything-http')}[data-status=disconnected]`);
    const after = await search(page, 'echo');
    expect(after).not.toContain('everything-http/echo');
    expect(after).toContain('everything/echo');
  }, 60_000);

  it('opens a server in the other views', async () => {
    await page.click(`${row('greeter-v1')} [data-test=server-open]`);
    await page.waitForSelector('[data-tool=greet]');
    expect(await page.$eval('[data-test=server-name]', (el) => el.textContent)).toBe('greeter-v1');
    expect(await page.$eval('[data-test=era]', (el) => el.textContent)).toBe('legacy');
    await page.click('[data-test=tab-servers]');
    await page.waitForSelector(`${row('greeter-v1')} .tag`);
  }, 60_000);
});

describe('Servers view of a Registry server.json', () => {
  it('lists a streamable-http remote (connectable) and a package kind it cannot run', async () => {
    const file = join(dir, 'server.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'io.github.example/everything',
        description: 'The everything server',
        version: '1.0.0',
        remotes: [{ type: 'streamable-http', url: http.url }],
        packages: [
          {
            registryType: 'nuget',
            identifier: 'Example.Server',
            version: '1.0.0',
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
    const { page, inspector } = await open(file);
    try {
      const name = 'io.github.example/everything remote 1';
      expect(await rows(page)).toEqual([
        expect.objectContaining({ name, transport: 'http', where: http.url }),
        expect.objectContaining({ name: 'io.github.example/everything nuget 1', transport: 'unsupported' }),
      ]);
      await page.click(`${row(name)} [data-test=server-connect]`);
      await page.waitForSelector(`${row(name)}[data-status=connected]`);
      expect((await rows(page))[0]?.era).toBe('modern');
    } finally {
      await page.close();
      await inspector.stop();
    }
  }, 60_000);
});
