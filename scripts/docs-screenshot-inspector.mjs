// Regenerates the inspector pictures of docs/guide/cli.md: starts the built CLI's
// `mcpkit inspect --ui` on the built-in everything server (stdio), drives the page in
// Debian's chromium (as the inspector's browser tests do), calls `echo`, shoots the Network
// view (docs/inspector-network.png), then calls `test_elicitation` and shoots the page with
// the elicitation dialog half filled in (docs/inspector.png, or out.png). Then, on the
// official SDK v1 server of test/support/fixtures/noisy-server.mjs, it calls `hello` and
// `crash` and shoots the Console view with the server's last lines and exit code
// (docs/inspector-console.png), and the disconnected state it leaves (docs/inspector-disconnected.png).
// The Tasks view: on the official server-everything (legacy), a research task asking for a
// clarification, answered in place (docs/inspector-tasks.png); the client settings of the
// built-in server (docs/inspector-settings.png).
// Last, `--config` with a catalogue of three stdio servers
// (the everything server on each era, the official SDK v1 greeter): it connects them all and
// searches their tools (docs/inspector-servers.png), opens the greeter, runs the Check view
// (docs/inspector-check.png), calls `chatty`, saves the session as a recording and opens it
// again in the History pane (docs/inspector-recording.png).
// Usage: npm run build && node scripts/docs-screenshot-inspector.mjs [out.png]
/* global document */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const OUT = process.argv[2] ?? join(ROOT, 'docs', 'inspector.png');
const STEP_MS = 20_000;
// Relative to ROOT (the inspector's working directory), so no local path shows in the picture.
const NOISY = 'test/support/fixtures/noisy-server.mjs';
const OFFICIAL = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const docsImage = (name) => join(ROOT, 'docs', name);

/** Starts `mcpkit inspect --ui` and resolves with its URL and the child. */
function startInspector(args = []) {
  const child = spawn(process.execPath, [CLI, 'inspect', '--ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: ROOT,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /mcpkit inspector: (\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`inspect --ui exited with ${code}: ${err}`)));
  });
}

/** Selects a tool, fills its form's fields and submits it. */
async function callTool(page, tool, fields) {
  await page.click(`[data-tool=${tool}]`);
  await page.waitForSelector('[data-test=call-form][data-ready]', { timeout: STEP_MS });
  for (const [name, value] of Object.entries(fields)) {
    const input = `[data-test=call-form] [name="root[${name}]"]`;
    await page.waitForSelector(input, { timeout: STEP_MS });
    await page.$eval(input, (el) => (el.value = ''));
    await page.type(input, value);
  }
  await page.click('[data-test=call-form] [data-test=submit]');
}

async function shoot(page, url) {
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(url);
  await page.waitForSelector('[data-tool=test_elicitation]', { timeout: STEP_MS });
  await callTool(page, 'echo', { text: 'Hello from the docs' });
  await page.waitForFunction(
    () => document.querySelector('[data-test=tool-result]')?.textContent?.includes('Hello from the docs'),
    { timeout: STEP_MS },
  );
  await page.click('[data-test=tab-network]');
  await page.waitForSelector('[data-test=net-row]', { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-network.png') });
  await page.click('[data-test=tab-tools]');
  await page.waitForSelector('[data-tool=test_elicitation]', { timeout: STEP_MS });
  await callTool(page, 'test_elicitation', { message: 'Who are you?' });
  const dialog = '[data-test=elicitation-form][data-ready]';
  await page.waitForSelector(`${dialog} [name="root[username]"]`, { timeout: STEP_MS });
  await page.type(`${dialog} [name="root[username]"]`, 'ada');
  await page.type(`${dialog} [name="root[email]"]`, 'ada@example.com');
  await page.screenshot({ path: OUT });
}

/** The Console view of a stdio server that wrote to stderr and then died. */
async function shootConsole(page, url) {
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(url);
  await page.waitForSelector('[data-tool=hello]', { timeout: STEP_MS });
  await callTool(page, 'hello', {});
  await page.waitForSelector('[data-test=tool-result]', { timeout: STEP_MS });
  await callTool(page, 'crash', {});
  await page.click('[data-test=tab-console]');
  await page.waitForSelector('[data-test=server-exit]', { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-console.png') });
  await page.waitForSelector('[data-test=disconnected]', { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-disconnected.png') });
}

/** The Tasks view: a research task of the official everything server waiting for a clarification. */
async function shootTasks(page, url) {
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(url);
  await page.waitForSelector('[data-tool="simulate-research-query"]', { timeout: STEP_MS });
  await page.click('[data-tool="simulate-research-query"]');
  await page.waitForSelector('[data-test=call-form][data-ready]', { timeout: STEP_MS });
  await page.type('[data-test=call-form] [name="root[topic]"]', 'python');
  // An ambiguous topic: the task asks which "python" is meant (a select or a checkbox).
  const ambiguous = '[data-test=call-form] [name="root[ambiguous]"]';
  if ((await page.$eval(ambiguous, (el) => el.tagName)) === 'SELECT') await page.select(ambiguous, '1');
  else await page.click(ambiguous);
  await page.click('[data-test=call-form] [data-test=submit]');
  await page.waitForSelector('[data-test=task-created]', { timeout: STEP_MS });
  await page.click('[data-test=tab-tasks]');
  const form = '[data-test=task-input] [data-test=elicitation-form][data-ready]';
  await page.waitForSelector(`${form} [name="root[interpretation]"]`, { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-tasks.png') });
}

async function shootSettings(page, url) {
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(url);
  await page.waitForSelector('[data-test=server-info]', { timeout: STEP_MS });
  await page.click('[data-test=tab-settings]');
  await page.waitForSelector('[data-test=settings]', { timeout: STEP_MS });
  await page.click('[data-test=paged-lists]');
  await page.screenshot({ path: docsImage('inspector-settings.png') });
}

/** The catalogue of docs/inspector-servers.png, with paths relative to ROOT. */
const CATALOG = {
  mcpServers: {
    everything: { command: 'node', args: ['dist/servers/everything/main.js'] },
    'everything-legacy': { command: 'node', args: ['dist/servers/everything/main.js'], era: 'legacy' },
    'greeter-v1': { command: 'node', args: ['test/support/fixtures/greeter-v1.mjs'] },
  },
};

async function shootCatalog(page, url, downloads) {
  await page.setViewport({ width: 1280, height: 800 });
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.goto(url);
  await page.waitForSelector('[data-test=server-row]', { timeout: STEP_MS });
  for (const name of Object.keys(CATALOG.mcpServers)) {
    const row = `[data-test=server-row][data-server="${name}"]`;
    await page.click(`${row} [data-test=server-connect]`);
    await page.waitForSelector(`${row}[data-status=connected]`, { timeout: STEP_MS });
  }
  await page.type('[data-test=catalog-query]', 'echo');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-test=catalog-hit]', { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-servers.png') });
  await page.click('[data-test=server-row][data-server="greeter-v1"] [data-test=server-open]');
  await page.waitForSelector('[data-tool=chatty]', { timeout: STEP_MS });
  await page.$eval('[data-test=tab-check]', (tab) => tab.click());
  await page.click('[data-test=run-check]');
  await page.waitForSelector('[data-test=check-report]', { timeout: 60_000 });
  await page.screenshot({ path: docsImage('inspector-check.png') });
  await page.click('[data-test=tab-tools]');
  await callTool(page, 'chatty', { caller: 'docs' });
  await page.waitForSelector('[data-test=tool-result]', { timeout: STEP_MS });
  await page.click('[data-test=export-history]');
  const saved = join(downloads, 'session.jsonl');
  for (let i = 0; !existsSync(saved); i++) {
    if (i > 200) throw new Error('the recording was not saved');
    await delay(50);
  }
  const input = await page.$('[data-test=open-recording]');
  await input.uploadFile(saved);
  await page.waitForSelector('[data-test=recording]', { timeout: STEP_MS });
  await page.screenshot({ path: docsImage('inspector-recording.png') });
}

async function stop(inspector) {
  const exited = new Promise((resolve) => inspector.child.once('exit', resolve));
  inspector.child.kill('SIGTERM');
  await exited;
}

if (!existsSync(join(ROOT, 'dist', 'ui', 'index.html'))) {
  console.error('docs-screenshot-inspector: no dist/ui; run `npm run build` first');
  process.exit(1);
}
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-screenshot-catalog-'));
writeFileSync(join(scratch, 'mcp.json'), JSON.stringify(CATALOG));
const inspector = await startInspector();
const noisy = await startInspector(['--', 'node', NOISY]);
const official = await startInspector(['--', 'node', OFFICIAL, 'stdio']);
const catalog = await startInspector(['--config', join(scratch, 'mcp.json')]);
const { browser, close } = await launchChromium('mcpkit-screenshot-');
try {
  // Before shoot(): the elicitation it leaves waiting would cover later pages of this inspector.
  await shootSettings(await browser.newPage(), inspector.url);
  await shoot(await browser.newPage(), inspector.url);
  await shootConsole(await browser.newPage(), noisy.url);
  await shootTasks(await browser.newPage(), official.url);
  await shootCatalog(await browser.newPage(), catalog.url, scratch);
  console.log(
    `docs-screenshot-inspector: wrote ${OUT}, inspector-network.png, inspector-console.png, ` +
      'inspector-disconnected.png, inspector-tasks.png, inspector-settings.png, ' +
      'inspector-servers.png, inspector-check.png, inspector-recording.png',
  );
} finally {
  await close();
  await stop(inspector);
  await stop(noisy);
  await stop(official);
  await stop(catalog);
  rmSync(scratch, { recursive: true, force: true });
}
