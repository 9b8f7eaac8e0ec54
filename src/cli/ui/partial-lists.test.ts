/**
 * The inspector app against a server that declares `resources` and `prompts` but answers
 * `resources/templates/list` and `prompts/list` with -32601: those lists are
 * shown as missing, and the rest is shown.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const PARTIAL = fileURLToPath(
  new URL('../../../test/support/fixtures/partial-lists-server.mjs', import.meta.url),
);

describe('mcpkit inspect --ui, a server with optional list methods missing', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let inspector: RunningInspector;
  let page: Page;

  beforeAll(async () => {
    ensureUiBuilt();
    browser = await launchBrowser();
    inspector = await startInspectorCli(['--', process.execPath, PARTIAL]);
    page = await browser.browser.newPage();
    await page.goto(inspector.url);
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
    await browser?.close();
  });

  it('shows the tools, and the resources beside a missing templates list', async () => {
    await page.waitForSelector('[data-tool=hello]');
    await page.click('[data-test=tab-resources]');
    await page.waitForSelector('[data-test=missing-resourceTemplates]');
    const note = await page.$eval('[data-test=missing-resourceTemplates]', (el) => el.textContent);
    expect(note).toContain('resources/templates/list with -32601 Method not found');
    expect(await page.$eval('[data-test=resource-list]', (el) => el.textContent)).toContain(
      'file:///notes.txt',
    );
    expect(await page.$('[data-test=missing-resources]')).toBeNull();
  });

  it('labels the prompts list missing on its tab', async () => {
    await page.click('[data-test=tab-prompts]');
    await page.waitForSelector('[data-test=missing-prompts]');
    expect(await page.$('[data-test=missing-resourceTemplates]')).toBeNull();
  });
});
