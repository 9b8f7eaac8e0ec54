/**
 * The inspector's client settings in chromium (issue 37): the extensions advertised and the
 * capabilities declared change what the client sends after the reconnect that saving does
 * (checked in the connection's recording); paged lists load one page at a time with "Load
 * more"; a deep link's `#era=legacy` reconnects with that era. Against mcpkit's everything
 * server (stdio) and a server of mcpkit's with a page size of 3 (Streamable HTTP).
 */
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

const TOOLS = 7;
const PAGE_SIZE = 3;

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let paged: Served;

beforeAll(async () => {
  ensureUiBuilt();
  browser = await launchBrowser();
  const server = createServer({ name: 'paged', version: '1.0.0', pageSize: PAGE_SIZE });
  for (let i = 1; i <= TOOLS; i++)
    server.tool(`tool_${i}`, { description: `tool number ${i}` }, () => `${i}`);
  paged = await serve(server, { port: 0 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await paged?.close();
});

async function open(args: string[], hash = ''): Promise<{ page: Page; inspector: RunningInspector }> {
  const inspector = await startInspectorCli(args);
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url + hash);
  await page.waitForSelector('[data-test=server-info]');
  return { page, inspector };
}

/** The connection's recording (what `mcpkit record` writes), fetched by the page from the API. */
function recording(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    const response = await fetch('/api/export', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mcpkit-token': token },
      body: '{}',
    });
    return ((await response.json()) as { result: string }).result;
  });
}

/** The client capabilities declared in the recording's requests (modern `_meta`). */
function declared(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as { from?: string; message?: { params?: { _meta?: Record<string, unknown> } } },
    )
    .filter((line) => line.from === 'client')
    .map((line) => line.message?.params?._meta?.['io.modelcontextprotocol/clientCapabilities'])
    .filter((caps): caps is Record<string, unknown> => caps !== undefined && caps !== null);
}

describe('client settings, mcpkit everything server (stdio, modern)', () => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => ({ page, inspector } = await open(['--era', 'modern'])), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, 'settings-failed.png') });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('declares what the settings say after the reconnect that saving does', async () => {
    const before = declared(await recording(page));
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((caps) => 'sampling' in caps)).toBe(true);
    expect(JSON.stringify(before)).toContain('io.modelcontextprotocol/ui');
    await page.click('[data-test=tab-settings]');
    await page.waitForSelector('[data-test=settings]');
    await page.click('[data-test=cap-sampling]');
    await page.click('[data-test=cap-elicitationUrl]');
    await page.click('[data-test="ext-io.modelcontextprotocol/ui"]');
    await page.click('[data-test="ext-io.modelcontextprotocol/tasks"]');
    await page.screenshot({ path: join(ARTIFACTS, 'settings.png') });
    await page.click('[data-test=settings-save]');
    await page.waitForFunction(
      () => document.querySelector('[data-test=settings-save]')?.textContent === 'Save and reconnect',
    );
    await page.click('[data-test=tab-tools]');
    await page.waitForSelector('[data-tool=echo]');
    const after = declared(await recording(page));
    expect(after.length).toBeGreaterThan(0);
    for (const caps of after) {
      expect(caps).not.toHaveProperty('sampling');
      expect(caps.elicitation).toEqual({ form: {} });
      expect(JSON.stringify(caps)).not.toContain('io.modelcontextprotocol/ui');
    }
    // Tasks not advertised: a call that would allow a task runs at once instead.
    await page.click('[data-tool=slow_compute]');
    await page.waitForSelector('[data-test=call-form][data-ready]');
    await page.type('[data-test=call-form] [name="root[seconds]"]', '0');
    await page.click('[data-test=as-task]');
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.waitForSelector('[data-test=tool-panel] [data-test=tool-result]');
    expect(await page.$('[data-test=task-created]')).toBeNull();
    expect(JSON.stringify(declared(await recording(page)))).not.toContain('io.modelcontextprotocol/tasks');
  });
});

describe('paged lists (Streamable HTTP, page size 3)', () => {
  it('loads one page at a time with "Load more" when the setting is on', async () => {
    const { page, inspector } = await open([paged.url]);
    try {
      const count = () => page.$eval('[data-test=count-tools]', (el) => el.textContent ?? '');
      await page.waitForFunction(
        (n) => document.querySelector('[data-test=count-tools]')?.textContent === ` (${n})`,
        {},
        TOOLS,
      );
      expect(await page.$('[data-test=load-more]')).toBeNull();
      await page.click('[data-test=tab-settings]');
      await page.click('[data-test=paged-lists]');
      await page.click('[data-test=settings-save]');
      await page.click('[data-test=tab-tools]');
      for (const shown of [PAGE_SIZE, 2 * PAGE_SIZE]) {
        await page.waitForFunction(
          (n) => document.querySelector('[data-test=count-tools]')?.textContent === ` (${n})`,
          {},
          shown,
        );
        await page.click('[data-test=load-more]');
      }
      await page.waitForFunction(
        (n) => document.querySelector('[data-test=count-tools]')?.textContent === ` (${n})`,
        {},
        TOOLS,
      );
      expect(await count()).toBe(` (${TOOLS})`);
      expect(await page.$('[data-test=load-more]')).toBeNull();
    } finally {
      await page.close();
      await inspector.stop();
    }
  });
});

describe('a deep link with the era', () => {
  it('#era=legacy reconnects the CLI’s connection with the legacy era', async () => {
    const { page, inspector } = await open([], '#era=legacy&tool=echo');
    try {
      await page.waitForFunction(() => document.querySelector('[data-test=era]')?.textContent === 'legacy');
      expect(await page.$eval('[data-test=era-select]', (el) => (el as HTMLSelectElement).value)).toBe(
        'legacy',
      );
      await page.waitForSelector('[data-test=call-form]');
      expect(new URL(page.url()).hash).toContain('era=legacy');
    } finally {
      await page.close();
      await inspector.stop();
    }
  });
});
