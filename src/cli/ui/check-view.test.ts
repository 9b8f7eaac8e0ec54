/**
 * The inspector's Check view in chromium (issue 37): `mcpkit check` run by the CLI process on
 * the connected server's target, its findings shown with severity, rule id, spec section and
 * sentence (the same findings `checkServer` gives for that target); and the contract
 * snapshot exported from the app, equal to what `mcpkit contract snapshot` writes. Against
 * mcpkit's everything server (stdio, connected modern; Streamable HTTP, connected legacy)
 * and the official SDK v1 server (test/support/fixtures/greeter-v1.mjs).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createEverythingServer } from '../../../servers/everything/server.js';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';
import { checkServer } from '../../check/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';

const GREETER = fileURLToPath(new URL('../../../test/support/fixtures/greeter-v1.mjs', import.meta.url));
const EVERYTHING = fileURLToPath(new URL('../../../dist/servers/everything/main.js', import.meta.url));
const CLI = fileURLToPath(new URL('../../../dist/src/cli/main.js', import.meta.url));

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

const stdio = (file: string) => ({
  kind: 'transport' as const,
  label: file,
  open: () => spawnStdio({ command: process.execPath, args: [file], stderr: 'pipe' }),
});

describe.each([
  {
    name: 'everything, stdio, modern',
    args: () => ['--era', 'modern', '--', process.execPath, EVERYTHING],
    target: () => stdio(EVERYTHING),
  },
  {
    name: 'everything, HTTP, legacy',
    args: () => ['--era', 'legacy', http.url],
    target: () => ({ kind: 'http' as const, label: http.url, url: http.url }),
  },
  {
    name: 'official SDK v1',
    args: () => ['--', process.execPath, GREETER],
    target: () => stdio(GREETER),
  },
])('Check view: $name', ({ name, args, target }) => {
  let page: Page;
  let inspector: RunningInspector;
  let dir: string;
  beforeAll(async () => {
    inspector = await startInspectorCli(args());
    page = await browser.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-downloads-'));
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
    await page.goto(inspector.url);
    await page.waitForSelector('[data-test=server-info]');
    // The header grows while the lists load: click the tab where it is now.
    await page.$eval('[data-test=tab-check]', (tab) => (tab as HTMLButtonElement).click());
    await page.waitForSelector('[data-test=run-check]');
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, `check-failed-${name}.png`) });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs mcpkit check on the server and shows each finding with severity, rule and spec line', async () => {
    // Keyboard: focus the button and press Enter.
    await page.focus('[data-test=run-check]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=check-report]', { timeout: 60_000 });
    const shown = await page.$$eval('[data-test=finding]', (trs) =>
      trs.map((tr) => {
        const cell = (col: string) => tr.querySelector(`[data-col=${col}]`)?.textContent ?? '';
        return {
          severity: cell('severity'),
          rule: cell('rule'),
          section: cell('section'),
          requirement: cell('requirement'),
        };
      }),
    );
    const report = await checkServer(target(), { era: 'auto' });
    const key = (f: { severity: string; rule: string; section: string }) =>
      `${f.severity} ${f.rule} ${f.section}`;
    expect(shown.map(key).sort()).toEqual(report.findings.map(key).sort());
    for (const finding of shown) {
      expect(finding.severity).toMatch(/^(error|warning|info)$/);
      expect(finding.section).toMatch(/^20\d\d-\d\d-\d\d /);
      expect(finding.requirement.length).toBeGreaterThan(0);
    }
    const summary = await page.$eval('[data-test=check-summary]', (el) => el.textContent ?? '');
    for (const era of report.eras) expect(summary).toContain(`${era.era} (${era.revision})`);
    if (name === 'official SDK v1') await page.screenshot({ path: join(ARTIFACTS, 'check.png') });
  }, 90_000);

  it('exports the contract snapshot as mcpkit contract snapshot writes it', async () => {
    await page.click('[data-test=export-contract]');
    const path = join(dir, 'contract.json');
    await vi.waitFor(() => expect(existsSync(path)).toBe(true), { timeout: 20_000, interval: 50 });
    const exported = readFileSync(path, 'utf8');
    const server = args();
    const split = server.indexOf('--');
    const where = split === -1 ? [http.url] : server.slice(split);
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'contract', 'snapshot', ...where]);
    expect(JSON.parse(exported)).toEqual(JSON.parse(stdout));
    expect(exported.trim()).toBe(stdout.trim());
  }, 60_000);
});
