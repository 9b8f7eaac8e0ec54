/**
 * What a new user tripped on in the inspector (issue 35, section 4), in chromium against the
 * official SDK v1's low-level `Server` (test/support/fixtures/loose-server.mjs): a
 * positive-integer field pre-filled with 0, field descriptions placed where they read as the
 * next field's label, and "tools (0)" before the server has answered tools/list.
 */
import { fileURLToPath } from 'node:url';
import type { HTTPRequest, Page } from 'puppeteer-core';
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

async function openPage(): Promise<Page> {
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return page;
}

async function pickRepeat(page: Page): Promise<void> {
  await page.goto(inspector.url);
  await page.waitForSelector('[data-tool=repeat]');
  await page.click('[data-tool=repeat]');
  await page.waitForSelector(`${form}[data-ready]`);
}

describe('inspector form fields', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage();
    await pickRepeat(page);
  }, 60_000);
  afterAll(() => page?.close());

  it('leaves a positive-integer field without default empty, shows its constraint, and flags it', async () => {
    const times = `${form} [name="root[times]"]`;
    const gap = `${form} [name="root[gap]"]`;
    expect(await page.$eval(times, (el) => (el as HTMLInputElement).value)).toBe('');
    expect(await page.$eval(times, (el) => (el as HTMLInputElement).placeholder)).toBe('integer, ≥ 1');
    expect(await page.$eval(gap, (el) => (el as HTMLInputElement).value)).toBe('');
    expect(await page.$eval(gap, (el) => (el as HTMLInputElement).placeholder)).toBe('number, > 0, ≤ 10');
    await page.type(`${form} [name="root[word]"]`, 'hi');
    await page.click(`${form} [data-test=submit]`);
    const errors = await page.waitForSelector(`${form} [data-test=form-errors]`);
    expect(await errors?.evaluate((el) => el.textContent)).toMatch(/times/);
    await page.waitForSelector(`${form} [data-schemapath="root.times"] .errmsg`, { visible: true });
    expect(await page.$eval('[data-test=history]', (el) => el.textContent)).not.toMatch(/tools\/call/);
  });

  it('places each description under its own label, before its input, not styled as a label', async () => {
    const layout = await page.$eval(`${form} [data-schemapath="root.times"]`, (field) => {
      const box = (el: Element | null) => el?.getBoundingClientRect();
      const label = box(field.querySelector('label'));
      const description = field.querySelector('p');
      const input = box(field.querySelector('input'));
      const next = box(field.parentElement?.nextElementSibling?.querySelector('label') ?? null);
      return {
        text: description?.textContent,
        labelBottom: label?.bottom ?? 0,
        top: box(description)?.top ?? 0,
        bottom: box(description)?.bottom ?? 0,
        inputTop: input?.top ?? 0,
        nextLabelTop: next?.top ?? Infinity,
        weight: description ? getComputedStyle(description).fontWeight : '',
        labelWeight: getComputedStyle(field.querySelector('label')!).fontWeight,
      };
    });
    expect(layout.text).toBe('how many times, at least once');
    expect(layout.top).toBeGreaterThanOrEqual(layout.labelBottom);
    expect(layout.bottom).toBeLessThanOrEqual(layout.inputTop);
    expect(layout.bottom).toBeLessThan(layout.nextLabelTop);
    expect(layout.weight).not.toBe(layout.labelWeight);
  });
});

describe('inspector lists before the first answer', () => {
  it('shows the tools tab as loading, not "(0)", until tools/list is answered', async () => {
    const page = await openPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const listAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (request.url().endsWith('/api/list') && request.postData()?.includes('"tools"')) {
        asked();
        void held.then(() => request.continue());
      } else void request.continue();
    });
    try {
      await page.goto(inspector.url);
      await listAsked;
      await page.waitForSelector('[data-test=count-tools]');
      expect(await page.$eval('[data-test=tab-tools]', (el) => el.textContent)).toBe('tools (loading…)');
      expect(await page.$eval('[data-test=loading]', (el) => el.textContent)).toMatch(/Loading tools/);
      release();
      await page.waitForFunction(() =>
        /^tools \(\d+\)$/.test(document.querySelector('[data-test=tab-tools]')?.textContent ?? ''),
      );
      expect(await page.$eval('[data-test=tab-tools]', (el) => el.textContent)).toBe('tools (5)');
      expect(await page.$('[data-test=loading]')).toBeNull();
    } finally {
      release();
      await page.close();
    }
  });
});
