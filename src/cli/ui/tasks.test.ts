/**
 * The inspector's Tasks view in chromium (issue 37): a tool called as a task appears with its
 * status over time, the input it asks for is answered in place, its result shows, and it can
 * be cancelled. On the modern era against mcpkit's everything server (the Tasks extension,
 * SEP-2663: `slow_compute`, `confirm_delete`); on the legacy era against the official
 * `@modelcontextprotocol/server-everything` (2025-11-25 tasks: `simulate-research-query`,
 * whose clarification arrives on `tasks/result`, and `tasks/list`), plus that server's tools,
 * resources and prompts basics.
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

const OFFICIAL = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

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

/** Picks `tool`, fills its text and number fields, ticks "run as a task" as asked, and calls it. */
async function callTool(page: Page, tool: string, fields: Record<string, string>, asTask: boolean) {
  await page.click('[data-test=tab-tools]');
  await page.waitForSelector(`[data-tool="${tool}"]`);
  await page.click(`[data-tool="${tool}"]`);
  await page.waitForSelector('[data-test=call-form][data-ready]');
  for (const [name, value] of Object.entries(fields)) {
    const input = `[data-test=call-form] [name="root[${name}]"]`;
    await page.$eval(input, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(input, value);
  }
  const ticked = await page.$eval('[data-test=as-task]', (el) => (el as HTMLInputElement).checked);
  if (ticked !== asTask) await page.click('[data-test=as-task]');
  await page.click('[data-test=call-form] [data-test=submit]');
}

/** Calls `tool` as a task and opens it in the Tasks view; resolves with its id. */
async function startTask(page: Page, tool: string, fields: Record<string, string>): Promise<string> {
  await callTool(page, tool, fields, true);
  const created = await page.waitForSelector('[data-test=task-created] code');
  const taskId = (await created?.evaluate((el) => el.textContent)) ?? '';
  expect(taskId).not.toBe('');
  await page.click('[data-test=tab-tasks]');
  await page.waitForSelector(`[data-task="${taskId}"]`);
  await page.focus(`[data-task="${taskId}"]`);
  await page.keyboard.press('Enter'); // keyboard: the list items take Enter
  await page.waitForFunction(
    (id) => document.querySelector('[data-test=task-id]')?.textContent === id,
    {},
    taskId,
  );
  return taskId;
}

async function waitForStatus(page: Page, status: string): Promise<void> {
  await page.waitForSelector(`[data-test=task-panel][data-status="${status}"]`, { timeout: 20_000 });
}

const timeline = (page: Page) =>
  page.$$eval('[data-test=task-change]', (rows) => rows.map((r) => r.getAttribute('data-status') ?? ''));

/** Sets a boolean field of a form, rendered as a checkbox or a select. */
async function setBoolean(page: Page, selector: string): Promise<void> {
  const kind = await page.$eval(selector, (el) => el.tagName.toLowerCase());
  if (kind === 'select') {
    const value = await page.$eval(
      selector,
      (el) =>
        Array.from((el as HTMLSelectElement).options).find((o) => /true|yes|1/i.test(o.value + o.text))
          ?.value,
    );
    await page.select(selector, value ?? 'true');
  } else {
    await page.click(selector);
  }
}

describe('Tasks view, modern era, mcpkit everything server (stdio)', () => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(async () => ({ page, inspector } = await open(['--era', 'modern'])), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, 'tasks-modern-failed.png') });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('shows a task the call created, its status over time and its result', async () => {
    await startTask(page, 'slow_compute', { seconds: '1', label: 'the answer' });
    await waitForStatus(page, 'completed');
    const statuses = await timeline(page);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    const result = await page.$eval('[data-test=task-panel] [data-test=tool-result]', (el) => el.textContent);
    expect(result).toContain('Computed the answer after 1s');
    // Without "run as a task" the same tool answers at once.
    await callTool(page, 'slow_compute', { seconds: '0' }, false);
    await page.waitForSelector('[data-test=tool-panel] [data-test=tool-result]');
  });

  it('answers the input a task asks for in place, in the Tasks view', async () => {
    await startTask(page, 'confirm_delete', { filename: 'notes.txt' });
    await waitForStatus(page, 'input_required');
    const form = '[data-test=task-input] [data-test=elicitation-form][data-ready]';
    await page.waitForSelector(`${form} [name="root[confirm]"]`);
    expect(await page.$('[data-test=input-dialog]')).toBeNull(); // not a modal dialog
    await setBoolean(page, `${form} [name="root[confirm]"]`);
    await page.click(`${form} [data-test=submit]`);
    await waitForStatus(page, 'completed');
    expect(await timeline(page)).toEqual(expect.arrayContaining(['working', 'input_required', 'completed']));
    const result = await page.$eval('[data-test=task-panel] [data-test=tool-result]', (el) => el.textContent);
    expect(result).toContain('Deleted notes.txt');
    await page.screenshot({ path: join(ARTIFACTS, 'tasks-modern.png') });
  });

  it('cancels a running task', async () => {
    const taskId = await startTask(page, 'slow_compute', { seconds: '120' });
    await waitForStatus(page, 'working');
    await page.click('[data-test=task-cancel]');
    await waitForStatus(page, 'cancelled');
    // A look-up by id (tasks/get) finds it again; modern servers have no tasks/list.
    expect(await page.$('[data-test=tasks-list]')).toBeNull();
    await page.type('[data-test=task-lookup]', taskId);
    await page.click('[data-test=task-lookup-go]');
    await waitForStatus(page, 'cancelled');
  });
});

describe('Tasks view and basics, legacy era, official server-everything (stdio)', () => {
  let page: Page;
  let inspector: RunningInspector;
  beforeAll(
    async () => ({ page, inspector } = await open(['--', process.execPath, OFFICIAL, 'stdio'])),
    60_000,
  );
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, 'tasks-legacy-failed.png') });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
  });

  it('follows a research task through its stages, answers its clarification in place, and shows the report', async () => {
    expect(await page.$eval('[data-test=era]', (el) => el.textContent)).toBe('legacy');
    await page.click('[data-test=tab-tools]');
    await page.waitForSelector('[data-tool="simulate-research-query"]');
    await page.click('[data-tool="simulate-research-query"]');
    await page.waitForSelector('[data-test=call-form][data-ready]');
    // The tool declares execution.taskSupport "required": the box starts ticked.
    expect(await page.$eval('[data-test=as-task]', (el) => (el as HTMLInputElement).checked)).toBe(true);
    await page.type('[data-test=call-form] [name="root[topic]"]', 'python');
    await setBoolean(page, '[data-test=call-form] [name="root[ambiguous]"]');
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.waitForSelector('[data-test=task-created] code');
    // Asked while the Tools tab is open: the Tasks tab says an input waits.
    await page.waitForSelector('[data-test=tasks-waiting]', { timeout: 20_000 });
    await page.click('[data-test=tab-tasks]');
    const form = '[data-test=task-input] [data-test=elicitation-form][data-ready]';
    await page.waitForSelector(`${form} [name="root[interpretation]"]`, { timeout: 20_000 });
    const value = await page.$eval(
      `${form} [name="root[interpretation]"]`,
      (el) => (el as HTMLSelectElement).options[1]?.value ?? '',
    );
    await page.select(`${form} [name="root[interpretation]"]`, value);
    await page.screenshot({ path: join(ARTIFACTS, 'tasks-legacy.png') });
    await page.click(`${form} [data-test=submit]`);
    await waitForStatus(page, 'completed');
    expect(await page.$('[data-test=tasks-waiting]')).toBeNull();
    const statuses = await timeline(page);
    expect(statuses).toEqual(expect.arrayContaining(['working', 'input_required', 'completed']));
    const messages = await page.$eval('[data-test=task-timeline]', (el) => el.textContent ?? '');
    expect(messages).toContain('Gathering sources');
    await page.waitForSelector('[data-test=task-panel] [data-test=tool-result]');
    const report = await page.$eval('[data-test=task-panel] [data-test=tool-result]', (el) => el.textContent);
    expect(report).toContain('Research Report: python');
    // The status notification came before the call's answer: still a task this client created.
    expect(await page.$eval('[data-test=task-panel]', (el) => el.textContent)).toContain(
      'created by this client',
    );
  });

  it('lists the server’s tasks with tasks/list', async () => {
    await page.reload();
    await page.waitForSelector('[data-test=server-info]');
    await page.click('[data-test=tab-tasks]');
    await page.click('[data-test=tasks-list]');
    await page.waitForSelector('[data-test=task-list] [data-status=completed]');
  });

  it('lists tools, resources and prompts, calls echo, reads a resource and gets a prompt', async () => {
    await callTool(page, 'echo', { message: 'hello official' }, false);
    await page.waitForFunction(() =>
      document.querySelector('[data-test=tool-result]')?.textContent?.includes('hello official'),
    );
    await page.click('[data-test=tab-resources]');
    await page.waitForSelector('[data-test=resource-list] li');
    const resources = await page.$$eval('[data-test=resource-list] li', (lis) => lis.length);
    expect(resources).toBeGreaterThan(0);
    await page.click('[data-test=resource-list] li');
    await page.waitForSelector('[data-test=read-result]');
    expect(await page.$eval('[data-test=read-result]', (el) => el.textContent)).toMatch(/\S/);
    await page.click('[data-test=tab-prompts]');
    await page.waitForSelector('[data-test=prompt-list] li');
    const items = await page.$$('[data-test=prompt-list] li');
    for (const item of items)
      if ((await item.evaluate((el) => el.textContent ?? '')).includes('Simple Prompt')) await item.click();
    await page.click('[data-test=prompt-form] [data-test=get-prompt]');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-test=prompt-form]')
        ?.textContent?.includes('simple prompt without arguments'),
    );
  });
});
