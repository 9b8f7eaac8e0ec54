// Debian's chromium for the docs scripts (docs-check, docs-screenshot-inspector): headless, in
// a throwaway profile, with --no-sandbox (it runs as root here). The tests launch theirs in
// test/support/inspector-browser.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

/** The chromium binary: CHROMIUM_PATH, or Debian's. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Starts headless chromium with a fresh profile named after `prefix`; `close()` stops it and
 * removes the profile. @returns {{ browser: import('puppeteer-core').Browser, close: () => Promise<void> }}
 */
export async function launchChromium(prefix) {
  const profile = mkdtempSync(join(tmpdir(), prefix));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
