/**
 * The inspector's forms in chromium: validation messages at each field before anything is
 * sent (tool call forms and prompt argument forms), the raw-JSON fallback for a schema the
 * form library cannot load, and structuredContent checked against outputSchema. The server
 * is the official SDK v1's low-level `Server` (test/support/fixtures/loose-server.mjs),
 * which sends whatever it is told to, so a result that breaks its outputSchema reaches us.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const LOOSE_SERVER = fileURLToPath(
  new URL('../../../test/support/fixtures/loose-server.mjs', import.meta.url),
);

let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/**
 * Opens a page on a new `inspect --ui` with `args`, waiting for `ready` to show; `requests`
 * collects the URL of every request the page makes.
 */
async function open(
  args: string[],
  ready: string,
): Promise<{ page: Page; inspector: RunningInspector; requests: string[] }> {
  const inspector = await startInspectorCli(args);
  const page = await browser.browser.newPage();
  const requests: string[] = [];
  page.on('request', (request) => void requests.push(request.url()));
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
  await page.waitForSelector(ready);
  return { page, inspector, requests };
}

const form = '[data-test=call-form]';
const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
const fieldError = (field: string) => `${form} [data-schemapath="root.${field}"] .errmsg`;

/**
 * Waits until the visible message at `field` says `expected` (fails on the test's timeout
 * otherwise): the editor validates on each key event, so on a loaded machine the message of
 * an earlier state (the empty field's "must be set") can show first, for a moment.
 */
async function messageComes(page: Page, field: string, expected: RegExp): Promise<void> {
  await page.waitForFunction(
    (selector, source) => {
      const message = document.querySelector<HTMLElement>(selector);
      return message?.checkVisibility() === true && new RegExp(source).test(message.textContent ?? '');
    },
    {},
    fieldError(field),
    expected.source,
  );
}

/** The text of the visible message at `field`, or '' when none shows. */
function messageAt(page: Page, field: string): Promise<string> {
  return page.$eval(`${form} [data-schemapath="root.${field}"]`, (el) => {
    const message = el.querySelector<HTMLElement>('.errmsg');
    return message?.checkVisibility() ? (message.textContent ?? '') : '';
  });
}

async function pickTool(page: Page, name: string): Promise<void> {
  await page.click(`[data-tool=${name}]`);
  await page.waitForFunction(
    (n) => document.querySelector('[data-test=tool-panel] h3')?.textContent === n,
    {},
    name,
  );
  await page.waitForSelector(`${form}[data-ready]`);
}

/** How many tools/call requests the history pane shows. */
function callsSent(page: Page): Promise<number> {
  return page.$eval('[data-test=history]', (el) => el.textContent?.match(/tools\/call/g)?.length ?? 0);
}

describe('inspector forms, against a server that checks nothing it sends', () => {
  let page: Page;
  let inspector: RunningInspector;
  let requests: string[];

  beforeAll(async () => {
    ({ page, inspector, requests } = await open(
      ['--', process.execPath, LOOSE_SERVER],
      '[data-tool=forecast]',
    ));
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, `forms-failed-${context.task.name.slice(0, 40)}.png`) });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('shows a message at the field as the person types, and clears it once the value is valid', async () => {
    await pickTool(page, 'forecast');
    expect(await messageAt(page, 'city')).toBe('');
    await page.type(`${form} [name="root[city]"]`, 'P');
    await messageComes(page, 'city', /at least 3 characters/);
    await page.$eval(`${form} [name="root[days]"]`, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(`${form} [name="root[days]"]`, '9');
    await messageComes(page, 'days', /at most 7/);
    await page.screenshot({ path: join(ARTIFACTS, 'forms-live-validation.png') });
    const before = await callsSent(page);
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector(`${form} [data-test=form-errors]`);
    expect(await callsSent(page)).toBe(before);

    await page.type(`${form} [name="root[city]"]`, 'aris');
    await page.waitForSelector(fieldError('city'), { hidden: true });
    await page.$eval(`${form} [name="root[days]"]`, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(`${form} [name="root[days]"]`, '3');
    await page.waitForSelector(fieldError('days'), { hidden: true });
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector('[data-test=tool-result] [data-test=output-match]');
    expect(await page.$eval('[data-test=tool-result]', (el) => el.textContent)).toContain('Paris: 21 °C');
  });

  it('says a required field is missing once the person leaves it empty, not before', async () => {
    await pickTool(page, 'forecast_broken');
    await pickTool(page, 'forecast'); // a fresh form
    expect(await messageAt(page, 'city')).toBe('');
    expect(await page.$eval(form, (el) => (el as HTMLElement).innerText)).not.toMatch(
      /required|must be set/i,
    );
    await page.focus(`${form} [name="root[city]"]`);
    await page.focus(`${form} [name="root[days]"]`);
    await page.waitForSelector(fieldError('city'), { visible: true });
    expect(await messageAt(page, 'city')).toMatch(/must be set/);
    expect(await messageAt(page, 'days')).toBe('');
    await page.type(`${form} [name="root[city]"]`, 'Nice');
    await page.waitForSelector(fieldError('city'), { hidden: true });
  });

  it('shows structuredContent that matches outputSchema, and one that does not with the mismatch', async () => {
    await pickTool(page, 'forecast_broken');
    await pickTool(page, 'forecast');
    await page.type(`${form} [name="root[city]"]`, 'Lyon');
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector('[data-test=tool-result] [data-test=output-match]');
    const matched = await page.$eval('[data-test=structured]', (el) => el.textContent ?? '');
    expect(matched).toContain('"celsius": 21');

    await pickTool(page, 'forecast_broken');
    await page.type(`${form} [name="root[city]"]`, 'Lyon');
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector('[data-test=tool-result] [data-test=output-mismatch]');
    expect(await page.$eval('[data-test=call-error]', (el) => el.textContent)).toMatch(
      /does not match its outputSchema: '\/celsius' must be number/,
    );
    expect(await page.$eval('[data-test=structured]', (el) => el.textContent)).toContain('"celsius": "warm"');
    expect(await page.$('[data-test=output-match]')).toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, 'forms-output-mismatch.png') });
  });

  it('falls back to the raw-JSON editor for a schema the form cannot load, and sends through it', async () => {
    await page.click('[data-tool=external_schema]');
    await page.waitForSelector(`${form} textarea.raw`);
    expect(await page.$eval(`${form} .mode`, (el) => el.textContent)).toMatch(
      /cannot render this schema.*schemas\.example\.com/,
    );
    expect(await page.$eval(`${form} .mode input`, (el) => (el as HTMLInputElement).disabled)).toBe(true);
    const raw = `${form} textarea.raw`;
    await page.$eval(raw, (el) => ((el as HTMLTextAreaElement).value = ''));
    await page.type(raw, '{"config": ');
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector(`${form} [data-test=form-errors]`);
    expect(await page.$eval(`${form} [data-test=form-errors]`, (el) => el.textContent)).toMatch(/raw JSON/);
    await page.type(raw, '{"level": 3}}');
    await page.click(`${form} [data-test=submit]`);
    await page.waitForFunction(() =>
      document
        .querySelector('[data-test=tool-result]')
        ?.textContent?.includes('received {"config":{"level":3}}'),
    );
  });
  it('renders a resource link with its name, URI and description', async () => {
    await page.click('[data-tool=links]');
    await page.waitForSelector(`${form}[data-ready]`);
    await page.click(`${form} [data-test=submit]`);
    await page.waitForSelector('[data-test=tool-result] [data-test=resource-link]');
    const link = await page.$eval('[data-test=resource-link]', (el) => el.textContent ?? '');
    expect(link).toContain('q3-report');
    expect(link).toContain('file:///srv/reports/2026-q3.txt');
    expect(link).toContain('The third-quarter report');
  });

  it('loaded nothing from outside its own origin (every asset is built into dist)', () => {
    const origin = new URL(inspector.url).origin;
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
  });
});

describe('inspector on the built-in server: prompt forms, log and history', () => {
  let page: Page;
  let inspector: RunningInspector;

  beforeAll(async () => {
    ({ page, inspector } = await open([], '[data-tool=echo]'));
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('marks a required argument at its field when it is left empty, and sends nothing', async () => {
    await page.click('[data-test=tab-prompts]');
    await page.waitForSelector('[data-test=prompt-list] li');
    const items = await page.$$('[data-test=prompt-list] li');
    for (const item of items)
      if ((await item.evaluate((el) => el.textContent ?? '')).includes('Prompt with arguments'))
        await item.click();
    const arg = (name: string) => `[data-test=prompt-form] [data-test=arg-${name}]`;
    await page.waitForSelector(arg('arg1'));
    expect(await page.$('[data-test=error-arg1]')).toBeNull();
    await page.focus(arg('arg1'));
    await page.focus(arg('arg2'));
    await page.waitForSelector('[data-test=error-arg1]');
    expect(await page.$eval('[data-test=error-arg1]', (el) => el.textContent)).toBe('required');
    expect(await page.$('[data-test=error-arg2]')).toBeNull();
    await page.click('[data-test=get-prompt]');
    await page.waitForSelector('[data-test=error-arg2]');
    const history = await page.$eval('[data-test=history]', (el) => el.textContent ?? '');
    expect(history).not.toContain('prompts/get');
    await page.type(arg('arg1'), 'x');
    await page.waitForSelector('[data-test=error-arg1]', { hidden: true });
  });
  it('shows log messages as they arrive, and expands and copies a history entry', async () => {
    await page.click('[data-test=tab-tools]');
    await page.click('[data-tool=test_tool_with_logging]');
    await page.waitForSelector(`${form}[data-ready]`);
    await page.click(`${form} [data-test=submit]`);
    await page.waitForFunction(() =>
      document.querySelector('[data-test=notifications]')?.textContent?.includes('Tool execution completed'),
    );
    expect(await text(page, '[data-test=notifications]')).toMatch(/log info \[test_tool_with_logging\]/);
    const origin = new URL(inspector.url).origin;
    // Another page of this browser may have the focus; the clipboard wants this one to.
    await page.bringToFront();
    await browser.browser
      .defaultBrowserContext()
      .overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    const entry = '[data-test=history] details';
    await page.click(`${entry} summary`);
    const shown = await page.$eval(`${entry} pre`, (el) => el.textContent ?? '');
    expect(JSON.parse(shown)).toMatchObject({ jsonrpc: '2.0' });
    await page.click(`${entry} .copy`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  });
});
