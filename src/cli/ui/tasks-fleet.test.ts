/**
 * The Tasks view on a Redis fleet (issue 37), in chromium: two instances of
 * examples/fleet-server.ts on one real redis-server, one inspector on each. A task created
 * through instance A appears in the inspector of instance B, looked up by its id
 * (`tasks/get`: the Tasks extension has no `tasks/list`, SEP-2663), and B follows it to its
 * end, result included.
 */
import type { Page } from 'puppeteer-core';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { startFleet, type FleetInstance } from '../../../test/support/fleet.js';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let redis: TestRedis;
let fleet: FleetInstance[];
const inspectors: RunningInspector[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  ensureUiBuilt();
  redis = await startRedis();
  fleet = await startFleet(redis.url, ['a', 'b'], { leaseMs: 1500, pollMs: 50 });
  browser = await launchBrowser();
}, 60_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    for (const [i, page] of pages.entries())
      await page.screenshot({ path: join(ARTIFACTS, `tasks-fleet-failed-${i}.png`) });
});

afterAll(async () => {
  for (const inspector of inspectors) await inspector.stop();
  await browser?.close();
  for (const instance of fleet ?? []) await instance.kill();
  await redis?.stop();
});

async function open(url: string): Promise<Page> {
  const inspector = await startInspectorCli(['--era', 'modern', url]);
  inspectors.push(inspector);
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
  pages.push(page);
  await page.waitForSelector('[data-test=server-info]');
  return page;
}

describe('Tasks view on a fleet of two instances on one Redis', () => {
  it('shows in the inspector of instance B a task created through instance A, to its result', async () => {
    const [a, b] = fleet;
    const onA = await open(a!.url);
    const onB = await open(b!.url);
    await onA.bringToFront(); // the page in front gets the keyboard
    await onA.click('[data-test=tab-tools]');
    await onA.click('[data-tool=slow]');
    await onA.waitForSelector('[data-test=call-form][data-ready]');
    await onA.type('[data-test=call-form] [name="root[ms]"]', '3000');
    await onA.click('[data-test=as-task]');
    await onA.click('[data-test=call-form] [data-test=submit]');
    const created = await onA.waitForSelector('[data-test=task-created] code');
    const taskId = (await created?.evaluate((el) => el.textContent)) ?? '';
    expect(taskId).not.toBe('');

    await onB.bringToFront();
    await onB.click('[data-test=tab-tasks]');
    await onB.type('[data-test=task-lookup]', taskId);
    await onB.click('[data-test=task-lookup-go]');
    await onB.waitForSelector(`[data-task="${taskId}"]`);
    expect(await onB.$eval('[data-test=task-id]', (el) => el.textContent)).toBe(taskId);
    await onB.waitForSelector('[data-test=task-panel][data-status=completed]', { timeout: 20_000 });
    const statuses = await onB.$$eval('[data-test=task-change]', (rows) =>
      rows.map((r) => r.getAttribute('data-status')),
    );
    expect(statuses[0]).toBe('working'); // looked up while it ran: B followed it to its end
    expect(statuses.at(-1)).toBe('completed');
    const result = await onB.$eval('[data-test=task-panel] [data-test=tool-result]', (el) => el.textContent);
    expect(result).toContain('worked 3000 ms on a');
  });
});
