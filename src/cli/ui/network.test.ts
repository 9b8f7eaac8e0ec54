/**
 * The inspector's Network and Console views in chromium (issue 37): every HTTP exchange with
 * its MCP headers, status, session id, duration and error class, the era and why, with the
 * bearer token redacted, against mcpkit's everything server over Streamable HTTP on both
 * eras and the official SDK v1 server (test/support/fixtures/greeter-v1.mjs); stdio lines
 * with direction and size; the console of a stdio server: stderr live, skipped stdout lines,
 * and the last lines and exit reason after it dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
const NOISY = fileURLToPath(new URL('../../../test/support/fixtures/noisy-server.mjs', import.meta.url));
const TOKEN = 'sk-inspector-test-0123456789abcdef';

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let http: Served;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
  http = await serve(createEverythingServer(), { port: 0 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await http?.close();
});

async function open(args: string[]): Promise<{ page: Page; inspector: RunningInspector }> {
  const inspector = await startInspectorCli(args);
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
  await page.waitForSelector('[data-test=server-info]');
  return { page, inspector };
}

/** The cells of every network row, by column. */
function rows(page: Page): Promise<Record<string, string>[]> {
  return page.$$eval('[data-test=net-row]', (trs) =>
    trs.map((tr) =>
      Object.fromEntries(
        Array.from(tr.querySelectorAll('td[data-col]')).map((td) => [
          td.getAttribute('data-col') ?? '',
          td.textContent ?? '',
        ]),
      ),
    ),
  );
}

async function callEcho(page: Page): Promise<void> {
  await page.click('[data-test=tab-tools]');
  await page.waitForSelector('[data-tool=echo]');
  await page.click('[data-tool=echo]');
  await page.waitForSelector('[data-test=call-form][data-ready]');
  await page.type('[data-test=call-form] [name="root[text]"]', 'over the wire');
  await page.click('[data-test=call-form] [data-test=submit]');
  await page.waitForSelector('[data-test=tool-result]');
}

async function network(page: Page, until: (rows: Record<string, string>[]) => boolean) {
  await page.click('[data-test=tab-network]');
  await page.waitForSelector('[data-test=net-row]');
  for (;;) {
    const all = await rows(page);
    if (until(all)) return all;
    const before = await page.$eval('[data-test=network] tbody', (el) => el.innerHTML);
    await page.waitForFunction(
      (html) => document.querySelector('[data-test=network] tbody')?.innerHTML !== html,
      {},
      before,
    );
  }
}

describe.each([
  { era: 'modern', args: () => ['--era', 'modern', '--token', TOKEN, http.url] },
  { era: 'auto (modern)', args: () => ['--token', TOKEN, http.url] },
  { era: 'legacy', args: () => ['--era', 'legacy', '--token', TOKEN, http.url] },
])('Network view over Streamable HTTP, mcpkit everything server, era $era', ({ era, args }) => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => ({ page, inspector } = await open(args())), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, `network-failed-${era}.png`) });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('shows each exchange with its MCP headers, status, session and duration, and the era with its reason', async () => {
    await callEcho(page);
    const all = await network(page, (r) =>
      r.some((row) => row.message === 'tools/call' && row.status === '200'),
    );
    const legacy = era === 'legacy';
    const call = all.find((row) => row.message === 'tools/call');
    expect(call?.method).toBe('POST');
    expect(call?.url).toContain(new URL(http.url).pathname);
    expect(call?.status).toBe('200');
    expect(call?.duration).toMatch(/^\d+ ms/);
    if (legacy) {
      // Legacy requests carry no Mcp-Method; the session id and version header do.
      expect(call?.['mcp-method']).toBe('');
      expect(call?.session).toMatch(/\S/);
      expect(all[0]?.message).toBe('initialize');
    } else {
      expect(call?.['mcp-method']).toMatch(/^tools\/call echo/);
      expect(call?.version).toBe('2026-07-28');
      expect(all[0]?.['mcp-method']).toBe('server/discover');
    }
    const reason = await page.$eval('[data-test=era-reason]', (el) => el.textContent ?? '');
    if (era === 'auto (modern)') expect(reason).toMatch(/server\/discover answered with a result/);
    else expect(reason).toMatch(new RegExp(`pinned to ${era}`));
    await page.screenshot({ path: join(ARTIFACTS, `network-http-${era.split(' ')[0]}.png`) });
  });

  it('redacts the bearer token in the request headers', async () => {
    await page.click('[data-test=net-row][data-kind=http]');
    const details = await page.waitForSelector('[data-test=net-details]');
    const text = (await details?.evaluate((el) => el.textContent)) ?? '';
    expect(text).toMatch(/"authorization": "\[redacted\]"/);
    const whole = await page.$eval('body', (el) => el.textContent ?? '');
    expect(whole).not.toContain(TOKEN);
  });
});

describe('Network view against the official SDK v1 server over Streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => {
    server = spawn(process.execPath, [GREETER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((resolve) => {
      let out = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
    });
    ({ page, inspector } = await open([url]));
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
    server?.kill();
  });

  it('shows the refused server/discover probe with its status and error class, and why the era is legacy', async () => {
    const all = await network(page, (r) => r.length >= 3);
    const probe = all[0];
    expect(probe?.status).toMatch(/^4\d\d$/);
    expect(probe?.class).not.toBe('');
    const reason = await page.$eval('[data-test=era-reason]', (el) => el.textContent ?? '');
    expect(reason).toMatch(/era legacy .*server\/discover answered error .*legacy initialize/);
    expect(all.some((row) => /\S/.test(row.session ?? ''))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'network-sdk-v1.png') });
  });
});

describe('Network and Console views of a stdio server', () => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => ({ page, inspector } = await open(['--', process.execPath, NOISY])), 60_000);
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('shows each line with its direction and size in bytes', async () => {
    const all = await network(page, (r) => r.length >= 2);
    const out = all.find((row) => row.direction === '→ server');
    const back = all.find((row) => row.direction === '← server');
    expect(out?.summary).toBe('server/discover');
    expect(out?.bytes).toMatch(/^[1-9]\d* B$/);
    expect(back?.bytes).toMatch(/^[1-9]\d* B$/);
    expect(all.some((row) => row.summary === 'not JSON-RPC, skipped')).toBe(true);
  });

  it('shows stderr live and the skipped stdout lines, then the last lines and the exit reason when the server dies', async () => {
    await page.click('[data-test=tab-console]');
    await page.waitForFunction(() =>
      document.querySelector('[data-test=console-lines]')?.textContent?.includes('noisy: started'),
    );
    const stdout = await page.$$eval('[data-test=console-lines] [data-stream=stdout]', (els) =>
      els.map((el) => el.textContent ?? ''),
    );
    expect(stdout.join('\n')).toContain('Noisy MCP Server running on stdio');
    await page.click('[data-test=tab-tools]');
    await page.click('[data-tool=crash]');
    await page.waitForSelector('[data-test=call-form][data-ready]');
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.click('[data-test=tab-console]');
    const exit = await page.waitForSelector('[data-test=server-exit]');
    expect(await exit?.evaluate((el) => el.textContent)).toMatch(/the server died: exited with code 3/);
    const lines = await page.$eval('[data-test=console-lines]', (el) => el.textContent ?? '');
    expect(lines).toContain('noisy: crashing now');
    expect(lines).toContain('noisy: started');
    await page.screenshot({ path: join(ARTIFACTS, 'console-stdio.png') });
  });
});
