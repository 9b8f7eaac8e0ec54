/**
 * Deep links into the inspector (issue 37, client settings): an address whose hash names a
 * tool and its arguments opens that tool with the form filled in, and picking a tool puts
 * it in the address. Against the official SDK v1's low-level `Server`
 * (test/support/fixtures/loose-server.mjs), in chromium.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const LOOSE_SERVER = fileURLToPath(
  new URL('../../../test/support/fixtures/loose-server.mjs', import.meta.url),
);
const form = '[data-test=call-form]';

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let inspector: RunningInspector;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
  inspector = await startInspectorCli(['--', process.execPath, LOOSE_SERVER]);
}, 60_000);

afterAll(async () => {
  await inspector?.stop();
  await browser?.close();
});

describe('inspector deep links', () => {
  it('opens the tool the hash names with its arguments in the form, and links the tool picked', async () => {
    const page = await browser.browser.newPage();
    try {
      await page.setViewport({ width: 1280, height: 800 });
      const hash = new URLSearchParams({ tool: 'repeat', args: JSON.stringify({ word: 'hi', times: 3 }) });
      await page.goto(`${inspector.url}#${hash.toString()}`);
      await page.waitForSelector(`${form}[data-ready]`);
      expect(await page.$eval('[data-test=tool-panel] h3', (el) => el.textContent)).toBe('repeat');
      expect(await page.$eval(`${form} [name="root[word]"]`, (el) => (el as HTMLInputElement).value)).toBe(
        'hi',
      );
      expect(await page.$eval(`${form} [name="root[times]"]`, (el) => (el as HTMLInputElement).value)).toBe(
        '3',
      );
      await page.click('[data-tool=forecast]');
      await page.waitForFunction(
        () => document.querySelector('[data-test=tool-panel] h3')?.textContent === 'forecast',
      );
      expect(new URL(page.url()).hash).toBe('#tool=forecast');
    } finally {
      await page.close();
    }
  });
});
