// Regenerates docs/inspector.png, the inspector picture of docs/guide/cli.md: starts the built
// CLI's `mcpkit inspect --ui` on the built-in everything server (stdio), drives the page in
// Debian's chromium (as the inspector's browser tests do), calls `echo`, then calls
// `test_elicitation` and shoots the page with the elicitation dialog half filled in.
// Usage: npm run build && node scripts/docs-screenshot-inspector.mjs [out.png]
/* global document */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const OUT = process.argv[2] ?? join(ROOT, 'docs', 'inspector.png');
const STEP_MS = 20_000;

/** Starts `mcpkit inspect --ui` and resolves with its URL and the child. */
function startInspector() {
  const child = spawn(process.execPath, [CLI, 'inspect', '--ui'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  await callTool(page, 'test_elicitation', { message: 'Who are you?' });
  const dialog = '[data-test=elicitation-form][data-ready]';
  await page.waitForSelector(`${dialog} [name="root[username]"]`, { timeout: STEP_MS });
  await page.type(`${dialog} [name="root[username]"]`, 'ada');
  await page.type(`${dialog} [name="root[email]"]`, 'ada@example.com');
  await page.screenshot({ path: OUT });
}

if (!existsSync(join(ROOT, 'dist', 'ui', 'index.html'))) {
  console.error('docs-screenshot-inspector: no dist/ui; run `npm run build` first');
  process.exit(1);
}
const inspector = await startInspector();
const { browser, close } = await launchChromium('mcpkit-screenshot-');
try {
  await shoot(await browser.newPage(), inspector.url);
  console.log(`docs-screenshot-inspector: wrote ${OUT}`);
} finally {
  await close();
  const exited = new Promise((resolve) => inspector.child.once('exit', resolve));
  inspector.child.kill('SIGTERM');
  await exited;
}
