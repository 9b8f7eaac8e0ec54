/**
 * A dead server switches the inspector to "disconnected" (issue 37), in chromium: a stdio
 * server that exits (test/support/fixtures/noisy-server.mjs, the official SDK v1) and a
 * Streamable HTTP server killed by its PID (test/support/fixtures/greeter-v1.mjs) each show the
 * reason and a reconnect button; the Console keeps the stdio server's last lines; reconnecting
 * brings the tools back.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const NOISY = fileURLToPath(new URL('../../../test/support/fixtures/noisy-server.mjs', import.meta.url));
const GREETER = fileURLToPath(new URL('../../../test/support/fixtures/greeter-v1.mjs', import.meta.url));

let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function open(args: string[]): Promise<{ page: Page; inspector: RunningInspector }> {
  const inspector = await startInspectorCli(args);
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
  await page.waitForSelector('[data-test=server-info]');
  return { page, inspector };
}

async function call(page: Page, tool: string, text?: string, field = 'text'): Promise<void> {
  await page.click('[data-test=tab-tools]');
  await page.waitForSelector(`[data-tool=${tool}]`);
  await page.click(`[data-tool=${tool}]`);
  await page.waitForSelector('[data-test=call-form][data-ready]');
  if (text !== undefined) await page.type(`[data-test=call-form] [name="root[${field}]"]`, text);
  await page.click('[data-test=call-form] [data-test=submit]');
}

describe('a dead server', () => {
  it('stdio: the server exits; the app says disconnected and why, keeps the console, and reconnects', async () => {
    const { page, inspector } = await open(['--', process.execPath, NOISY]);
    try {
      expect(await page.$('[data-test=disconnected]')).toBeNull();
      await call(page, 'crash');
      const banner = await page.waitForSelector('[data-test=disconnected]');
      expect(await banner?.evaluate((el) => el.getAttribute('role'))).toBe('alert');
      const reason = await page.$eval('[data-test=lost-reason]', (el) => el.textContent ?? '');
      expect(reason).toMatch(/the server died: exited with code 3/);
      expect(await page.$('[data-test=server-info]')).toBeNull();
      await page.click('[data-test=tab-console]');
      await page.waitForFunction(() =>
        document.querySelector('[data-test=console-lines]')?.textContent?.includes('noisy: crashing now'),
      );
      expect(await page.$eval('[data-test=server-exit]', (el) => el.textContent)).toMatch(
        /exited with code 3/,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'disconnected-stdio.png') });
      await page.focus('[data-test=reconnect]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-test=server-info]');
      expect(await page.$('[data-test=disconnected]')).toBeNull();
      await page.click('[data-test=tab-tools]');
      await page.waitForSelector('[data-tool=hello]');
    } finally {
      await page.close();
      await inspector.stop();
    }
  });

  it('Streamable HTTP: the server is gone; the next request switches the app to disconnected', async () => {
    const server = spawn(process.execPath, [GREETER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const url = await new Promise<string>((resolve) => {
      let out = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
    });
    const { page, inspector } = await open([url]);
    try {
      await page.click('[data-test=tab-tools]');
      await page.waitForSelector('[data-tool=chatty]');
      server.kill('SIGKILL');
      await exited;
      await call(page, 'chatty', 'anyone there?', 'caller');
      await page.waitForSelector('[data-test=disconnected]');
      const reason = await page.$eval('[data-test=lost-reason]', (el) => el.textContent ?? '');
      expect(reason).toMatch(/could not reach/);
      await page.click('[data-test=reconnect]');
      await page.waitForSelector('[data-test=reconnect-error]');
      expect(await page.$('[data-test=disconnected]')).not.toBeNull();
    } finally {
      await page.close();
      await inspector.stop();
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  });
});
