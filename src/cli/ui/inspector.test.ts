import { request } from 'node:http';
import { join } from 'node:path';
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

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let http: Served;
/** Set when the HTTP server saw the cancelled call's signal abort. */
let cancelledOnServer = false;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
  const server = createEverythingServer();
  server.tool(
    'test_wait_for_cancel',
    { description: 'Reports progress, then waits until cancelled' },
    async (_a, ctx) => {
      ctx.progress(1, { total: 10, message: 'waiting for cancel' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      cancelledOnServer = true;
      return 'cancelled';
    },
  );
  server.tool('test_url_elicitation', { description: 'Asks the user to visit a URL' }, async (_a, ctx) => {
    const answer = await ctx.elicit({
      mode: 'url',
      message: 'Finish signing in',
      url: 'https://example.com/connect?session=42',
      elicitationId: 'e-42',
    } as never);
    return `URL elicitation: ${answer.action}`;
  });
  http = await serve(server, { port: 0 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await http?.close();
});

/** Selects a tool, fills its generated form field by field, and submits it. */
async function callTool(page: Page, tool: string, fields: Record<string, string> = {}): Promise<void> {
  await page.click(`[data-tool=${tool}]`);
  await page.waitForSelector('[data-test=call-form][data-ready]');
  for (const [name, value] of Object.entries(fields)) {
    const input = `[data-test=call-form] [name="root[${name}]"]`;
    await page.waitForSelector(input);
    await page.$eval(input, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(input, value);
  }
  await page.click('[data-test=call-form] [data-test=submit]');
}

async function resultText(page: Page, includes: string): Promise<string> {
  await page.waitForFunction(
    (text) => document.querySelector('[data-test=tool-result]')?.textContent?.includes(text),
    {},
    includes,
  );
  return page.$eval('[data-test=tool-result]', (el) => el.textContent ?? '');
}

async function answerElicitation(page: Page, era: string, onDialog?: () => Promise<unknown>): Promise<void> {
  await callTool(page, 'test_elicitation', { message: `Who are you (${era})?` });
  await page.waitForSelector('[data-test=elicitation-form][data-ready] [name="root[username]"]');
  await page.type('[data-test=elicitation-form] [name="root[username]"]', `ada-${era}`);
  await page.type('[data-test=elicitation-form] [name="root[email]"]', 'ada@example.com');
  await onDialog?.();
  await page.click('[data-test=elicitation-form] [data-test=submit]');
  await page.waitForSelector('[data-test=input-dialog]', { hidden: true });
  expect(await resultText(page, `ada-${era}`)).toContain('action=accept');
}

async function reconnect(page: Page, era: 'modern' | 'legacy'): Promise<void> {
  await page.click('[data-test=tab-tools]');
  await page.select('[data-test=era-select]', era);
  await page.click('[data-test=connect]');
  await page.waitForFunction(
    (want) => document.querySelector('[data-test=era]')?.textContent === want,
    {},
    era,
  );
  await page.waitForSelector('[data-tool=test_elicitation]');
}

function apiStatus(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: '/api/state', method: 'POST', headers },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end('{}');
  });
}

/** GETs `path` exactly as written (no URL normalisation), resolving with the body. */
function rawGet(url: string, path: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.once('end', () => resolve(body));
    });
    req.once('error', reject);
    req.end();
  });
}

const transports = [
  { name: 'stdio', args: () => [] },
  { name: 'http', args: () => [http.url] },
];

describe.each(transports)('mcpkit inspect --ui over $name, in chromium', ({ name, args }) => {
  let inspector: RunningInspector;
  let page: Page;
  const shot = (view: string) => page.screenshot({ path: join(ARTIFACTS, `${name}-${view}.png`) });

  beforeAll(async () => {
    inspector = await startInspectorCli(args());
    page = await browser.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(inspector.url);
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await shot(`failed-${context.task.name.slice(0, 40)}`);
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('connects and shows the server, the negotiated era and version', async () => {
    await page.waitForSelector('[data-test=server-info]');
    expect(await page.$eval('[data-test=server-name]', (el) => el.textContent)).toBe('mcpkit everything');
    expect(await page.$eval('[data-test=era]', (el) => el.textContent)).toBe('modern');
    expect(await page.$eval('[data-test=protocol-version]', (el) => el.textContent)).toBe('2026-07-28');
    await page.waitForSelector('[data-tool=echo]');
  });

  it('calls echo through the form generated from its inputSchema', async () => {
    await callTool(page, 'echo');
    await page.waitForSelector('[data-test=form-errors]');
    expect(await page.$eval('[data-test=form-errors]', (el) => el.textContent)).toMatch(/text/);
    await callTool(page, 'echo', { text: 'hello from chromium' });
    expect(await resultText(page, 'hello from chromium')).toContain('hello from chromium');
    await shot('tools');
  });

  it('renders the image a tool returns', async () => {
    await callTool(page, 'test_image_content');
    await page.waitForSelector('[data-test=tool-result] img[data-test=image]');
    const width = await page.$eval('[data-test=tool-result] img[data-test=image]', async (img) => {
      await (img as HTMLImageElement).decode();
      return (img as HTMLImageElement).naturalWidth;
    });
    expect(width).toBeGreaterThan(0);
  });

  it('renders audio, embedded resources and a visible isError', async () => {
    await callTool(page, 'test_audio_content');
    await page.waitForSelector('[data-test=tool-result] audio[data-test=audio]');
    const src = await page.$eval('[data-test=tool-result] audio', (el) => (el as HTMLAudioElement).src);
    expect(src).toMatch(/^data:audio\/wav;base64,/);
    await callTool(page, 'test_embedded_resource');
    await page.waitForSelector('[data-test=tool-result] .embedded');
    await callTool(page, 'test_error_handling');
    await page.waitForSelector('[data-test=tool-result].error .badge.error');
  });

  it('answers a form elicitation in a dialog so the tool completes (modern MRTR, then legacy)', async () => {
    await answerElicitation(page, 'modern', () => shot('elicitation-dialog'));
    const history = await page.$eval('[data-test=history]', (el) => el.textContent ?? '');
    expect(history.match(/tools\/call/g)?.length).toBeGreaterThanOrEqual(2); // the MRTR retry
    await reconnect(page, 'legacy');
    await answerElicitation(page, 'legacy');
    await shot('elicitation');
  });

  it('renders titled enums and multi-selects of an elicitation as selects and checkboxes', async () => {
    await callTool(page, 'test_elicitation_sep1330_enums');
    const form = '[data-test=elicitation-form][data-ready]';
    await page.waitForSelector(`${form} [name="root[titledSingle]"]`);
    const titles = await page.$$eval(`${form} [name="root[titledSingle]"] option`, (o) =>
      o.map((x) => x.textContent),
    );
    expect(titles).toEqual(['First Choice', 'Second Choice', 'Third Choice']);
    const ticked = await page.$$eval(`${form} label`, (labels) => {
      const label = labels.find((l) => l.textContent?.trim() === 'Second Choice') as
        HTMLLabelElement | undefined;
      const box = label?.control ?? label?.querySelector('input');
      box?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return box !== undefined && box !== null;
    });
    expect(ticked).toBe(true);
    await page.click(`${form} [data-test=submit]`);
    expect(await resultText(page, 'titledMulti')).toContain('"titledMulti":["value2"]');
  });

  it('gets a prompt with an argument completed by completion/complete', async () => {
    await page.click('[data-test=tab-prompts]');
    await page.waitForSelector('[data-test=prompt-list] li');
    const items = await page.$$('[data-test=prompt-list] li');
    for (const item of items)
      if ((await item.evaluate((el) => el.textContent ?? '')).includes('Prompt with arguments'))
        await item.click();
    await page.waitForSelector('[data-test=prompt-form] [data-test=arg-arg1]');
    await page.type('[data-test=prompt-form] [data-test=arg-arg1]', 'par');
    await page.waitForFunction(
      () => document.querySelector('[data-test=suggestions-arg1]')?.textContent === 'parisparkparty',
    );
    await page.click('[data-test=suggestions-arg1] button');
    await page.type('[data-test=prompt-form] [data-test=arg-arg2]', 'b');
    await page.click('[data-test=prompt-form] button[type=submit]');
    await page.waitForFunction(() =>
      document.querySelector('[data-test=prompt-form]')?.textContent?.includes("arg1='paris', arg2='b'"),
    );
    await page.click('[data-test=tab-tools]');
  });

  it('reads a resource template with a variable completed by completion/complete', async () => {
    await page.click('[data-test=tab-resources]');
    const input = '[data-test="template-template-data"] [data-test=arg-id]';
    await page.waitForSelector(input);
    await page.type(input, '4');
    await page.waitForSelector('[data-test=suggestions-id] button');
    const suggestions = await page.$$eval('[data-test=suggestions-id] button', (b) =>
      b.map((x) => x.textContent),
    );
    expect(suggestions).toEqual(['42', '420']);
    await page.click('[data-test=suggestions-id] button');
    await page.click('[data-test=read-template]');
    await page.waitForFunction(() =>
      document.querySelector('[data-test=read-result]')?.textContent?.includes('Data for ID: 42'),
    );
    await shot('resources');
  });

  it('shows a list-change notification when it arrives', async () => {
    await reconnect(page, 'modern');
    await callTool(page, 'test_trigger_tool_change');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-test=notifications]')
        ?.textContent?.includes('notifications/tools/list_changed'),
    );
  });

  it('lets the person answer a sampling request by hand', async () => {
    await callTool(page, 'test_sampling', { prompt: 'Capital of France?' });
    await page.waitForSelector('[data-test=sampling-reply]');
    expect(await page.$eval('[data-test=sampling]', (el) => el.textContent)).toContain('Capital of France?');
    await page.type('[data-test=sampling-reply]', 'Paris, typed by hand');
    await page.click('[data-test=sampling-send]');
    expect(await resultText(page, 'Paris, typed by hand')).toContain('LLM response');
  });

  it('offers the roots configured in the page to the server', async () => {
    await page.click('[data-test=tab-roots]');
    await page.waitForSelector('[data-test=roots-text]');
    await page.$eval('[data-test=roots-text]', (el) => ((el as HTMLTextAreaElement).value = ''));
    await page.type('[data-test=roots-text]', 'file:///tmp/project Project');
    await page.click('[data-test=roots-save]');
    await page.click('[data-test=tab-tools]');
    await callTool(page, 'test_input_required_result_list_roots');
    expect(await resultText(page, 'file:///tmp/project')).toContain('file:///tmp/project');
  });

  // Page behaviour that does not depend on the transport: registered once, on the HTTP leg.
  if (name === 'http') {
    it('shows a URL elicitation with its URL', async () => {
      await callTool(page, 'test_url_elicitation');
      await page.waitForSelector('[data-test=url-elicitation]');
      const shown = await page.$eval('[data-test=elicitation-url]', (el) => el.textContent);
      expect(shown).toBe('https://example.com/connect?session=42');
      await page.click('[data-test=url-elicitation] [data-test=accept]');
      expect(await resultText(page, 'URL elicitation')).toContain('accept');
    });

    it('shows live progress and cancels the call from the page', async () => {
      await callTool(page, 'test_wait_for_cancel');
      await page.waitForFunction(() =>
        document.querySelector('[data-test=progress]')?.textContent?.includes('waiting for cancel'),
      );
      await page.click('[data-test=cancel]');
      await page.waitForSelector('[data-test=call-error]');
      expect(await page.$eval('[data-test=call-error]', (el) => el.textContent)).toMatch(/abort/i);
      await expect.poll(() => cancelledOnServer).toBe(true);
    });
  }

  it('refuses API calls without the token, with a foreign Origin or Host', async () => {
    const url = new URL(inspector.url);
    const token = url.searchParams.get('token') ?? '';
    const host = url.host;
    expect(await apiStatus(inspector.url, { host })).toBe(403);
    expect(await apiStatus(inspector.url, { host, 'x-mcpkit-token': 'wrong' })).toBe(403);
    expect(
      await apiStatus(inspector.url, { host, 'x-mcpkit-token': token, origin: 'http://evil.example' }),
    ).toBe(403);
    expect(await apiStatus(inspector.url, { host: 'evil.example', 'x-mcpkit-token': token })).toBe(403);
    expect(await apiStatus(inspector.url, { host, 'x-mcpkit-token': token, origin: url.origin })).toBe(200);
    for (const path of ['/..%2f..%2f..%2fpackage.json', '/../../../package.json'])
      expect(await rawGet(inspector.url, path)).not.toContain('"name": "mcpkit"');
    const fromPage = await page.evaluate(async () => (await fetch('/api/state', { method: 'POST' })).status);
    expect(fromPage).toBe(403);
  });
});
