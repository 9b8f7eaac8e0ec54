/**
 * Recordings in the inspector app, in chromium (issue 37): the session saved from the History
 * pane is a recording in `mcpkit record`'s format (secrets redacted) that `mcpkit replay`
 * answers from; the same file opened in the app is browsed read-only in the History pane
 * with the replay command lines. Against mcpkit's everything server on each era (stdio
 * modern, Streamable HTTP legacy) and the official SDK v1 server
 * (test/support/fixtures/greeter-v1.mjs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distance } from 'fastest-levenshtein';
import type { ElementHandle, Page } from 'puppeteer-core';
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
import { parseRecording } from '../record/format.js';
import { ReplayBook } from '../replay/book.js';

const GREETER = fileURLToPath(new URL('../../../test/support/fixtures/greeter-v1.mjs', import.meta.url));
/** A secret of a shape the record format redacts wherever it appears. */
const SECRET = 'sk-test-0123456789abcdefghij';

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

/** Where the page's downloads land. */
async function downloadsOf(page: Page): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-downloads-'));
  const session = await page.createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  return dir;
}

async function downloaded(path: string): Promise<string> {
  await vi.waitFor(() => expect(existsSync(path)).toBe(true), { timeout: 10_000, interval: 50 });
  return readFileSync(path, 'utf8');
}

describe.each([
  { name: 'everything, stdio, modern', era: 'modern', tool: 'echo', args: () => ['--era', 'modern'] },
  {
    name: 'everything, HTTP, legacy',
    era: 'legacy',
    tool: 'echo',
    args: () => ['--era', 'legacy', http.url],
  },
  { name: 'official SDK v1', era: 'legacy', tool: 'chatty', args: () => ['--', process.execPath, GREETER] },
])('recordings in the app: $name', ({ name, era, tool, args }) => {
  let page: Page;
  let inspector: RunningInspector;
  let dir: string;
  beforeAll(async () => {
    inspector = await startInspectorCli(args());
    page = await browser.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    dir = await downloadsOf(page);
    await page.goto(inspector.url);
    await page.waitForSelector('[data-test=server-info]');
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: join(ARTIFACTS, `recordings-failed-${name}.png`) });
  });
  afterAll(async () => {
    await page?.close();
    await inspector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  let text: string;

  it('saves the session as a recording that replay answers from, secrets redacted', async () => {
    await page.waitForSelector(`[data-tool=${tool}]`);
    await page.click(`[data-tool=${tool}]`);
    await page.waitForSelector('[data-test=call-form][data-ready]');
    const field = tool === 'echo' ? 'text' : 'caller';
    await page.type(`[data-test=call-form] [name="root[${field}]"]`, `key ${SECRET}`);
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.waitForSelector('[data-test=tool-result]');
    // Keyboard: the save button takes focus and Enter.
    await page.focus('[data-test=export-history]');
    await page.keyboard.press('Enter');
    text = await downloaded(join(dir, 'session.jsonl'));
    expect(text).not.toContain(SECRET);
    const { header, messages } = parseRecording(text);
    expect(header).toMatchObject({
      mcpkitRecording: 1,
      transport: args().includes(http.url) ? 'http' : 'stdio',
    });
    const call = messages.find(
      (m) => m.from === 'client' && (m.message as { method?: string }).method === 'tools/call',
    );
    expect(call?.message).toMatchObject({ params: { name: tool, arguments: { [field]: 'key [redacted]' } } });
    const answer = messages.find(
      (m) =>
        m.from === 'server' && (m.message as { id?: unknown }).id === (call?.message as { id: unknown }).id,
    );
    const book = new ReplayBook(messages, distance);
    // The answer comes last, after the notifications the server sent while working on it.
    const replies = book.answer({ ...(call?.message as { method: string; params: unknown }), id: 99 });
    expect(replies.at(-1)?.message).toEqual({ ...(answer?.message as object), id: 99 });
    const shown = await page.$$eval('[data-test=replay-command]', (els) => els.map((e) => e.textContent));
    expect(shown).toEqual(['mcpkit replay session.jsonl', 'mcpkit replay session.jsonl --port 0']);
  }, 60_000);

  it('opens a recording read-only in the History pane, with its replay command', async () => {
    const input = (await page.$('[data-test=open-recording]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(join(dir, 'session.jsonl'));
    await page.waitForSelector('[data-test=recording]');
    const { header, messages } = parseRecording(text);
    const banner = await page.$eval('[data-test=recording]', (el) => el.textContent ?? '');
    expect(banner).toContain(header.server);
    expect(banner).toContain(`${messages.length} messages`);
    const entries = await page.$$eval('[data-test=history] details.frame', (els) => els.length);
    expect(entries).toBe(messages.length);
    const first = await page.$eval(
      '[data-test=history] details.frame:last-of-type summary',
      (el) => el.textContent,
    );
    expect(first).toContain((messages[0]?.message as { method: string }).method);
    expect(await page.$eval('[data-test=export-history]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    const shown = await page.$$eval('[data-test=replay-command]', (els) => els.map((e) => e.textContent));
    expect(shown).toContain('mcpkit replay session.jsonl');
    if (era === 'legacy' && name.startsWith('official'))
      await page.screenshot({ path: join(ARTIFACTS, 'recording.png') });
    // Live frames do not enter a recording being browsed; back to live shows them again.
    await page.click('[data-test=close-recording]');
    await page.waitForFunction(() => !document.querySelector('[data-test=recording]'));
  }, 60_000);

  it('refuses a file that is not a recording, naming the line', async () => {
    const bad = join(dir, 'bad.jsonl');
    await import('node:fs').then((fs) => fs.writeFileSync(bad, '{"not":"a header"}\n'));
    const input = (await page.$('[data-test=open-recording]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(bad);
    await page.waitForSelector('[data-test=recording-error]');
    expect(await page.$eval('[data-test=recording-error]', (el) => el.textContent)).toContain('line 1');
  }, 30_000);
});
