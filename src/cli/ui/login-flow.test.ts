/**
 * The inspector's OAuth login in chromium, end to end: `mcpkit inspect --ui URL` against an
 * mcpkit server protected by mcpkit/auth, whose authorization server is a real
 * oidc-provider in-process. The page offers Log in; the authorization server's own login
 * and consent pages are filled in the tab it opens; the tab comes back to the inspector's
 * /callback and the page lists and calls the server's tools. A refused consent (the
 * provider's Cancel link) is reported, and Log out forgets the tokens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier, protectedResource } from '../../auth/index.js';
import {
  ARTIFACTS,
  ensureUiBuilt,
  launchBrowser,
  startInspectorCli,
  type RunningInspector,
} from '../../../test/support/inspector-browser.js';
import { startIssuer, type TestIssuer } from '../../../test/support/oidc.js';
import { startProtected, type ProtectedServer } from '../../../test/support/protected-server.js';

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let issuer: TestIssuer;
let server: ProtectedServer;
let inspector: RunningInspector;
let page: Page;
let configDir: string;

beforeAll(async () => {
  ensureUiBuilt();
  issuer = await startIssuer();
  server = await startProtected((url) =>
    protectedResource({
      resource: url,
      authorizationServers: [issuer.issuer],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: issuer.issuer, audience: url }),
    }),
  );
  // The provider's pages import a web font: keep the browser off the network.
  browser = await launchBrowser(['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1']);
  configDir = mkdtempSync(join(tmpdir(), 'mcpkit-inspector-login-'));
  inspector = await startInspectorCli([server.url], { MCPKIT_CONFIG_DIR: configDir });
  page = await browser.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(inspector.url);
}, 60_000);

afterAll(async () => {
  await page?.close();
  await inspector?.stop();
  await browser?.close();
  await server?.close();
  await issuer?.close();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await page.screenshot({ path: join(ARTIFACTS, `login-failed-${context.task.name.slice(0, 40)}.png`) });
});

/** Clicks Log in and returns the tab the authorization server's page opens in. */
async function clickLogin(): Promise<Page> {
  const opened = new Promise<Page | null>((resolve) => page.once('popup', resolve));
  await page.click('[data-test=login-button]');
  const tab = await opened;
  if (!tab) throw new Error('Log in opened no tab');
  return tab;
}

const text = (p: Page, selector: string) => p.$eval(selector, (el) => el.textContent ?? '');

/** Answers the provider's pages in `tab` as alice (login if asked, then consent); the callback's text. */
async function approveIn(tab: Page): Promise<string> {
  for (let step = 0; step < 4; step++) {
    const found = await tab.waitForSelector(
      'input[name=login], input[name=prompt][value=consent], [data-test=callback]',
    );
    const what = await found!.evaluate((el) => el.getAttribute('name') ?? 'callback');
    if (what === 'callback') return text(tab, '[data-test=callback]');
    if (what === 'login') {
      await tab.type('input[name=login]', 'alice');
      await tab.type('input[name=password]', 'secret');
    }
    await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
  }
  throw new Error('the provider did not send the tab back to the inspector');
}

describe('mcpkit inspect --ui: logging in to a protected server', () => {
  it('offers Log in when the server answers 401, and reports a refused consent', async () => {
    await page.waitForSelector('[data-test=login-button]');
    expect(await text(page, '[data-test=login]')).toContain('needs authorization');
    const tab = await clickLogin();
    await tab.waitForSelector('input[name=login]');
    expect(tab.url().startsWith(issuer.issuer)).toBe(true);
    await tab.click('a[href*="/abort"]'); // the provider's "[ Cancel ]"
    await tab.waitForSelector('[data-test=callback]');
    expect(await text(tab, '[data-test=callback]')).toMatch(/Login failed: .*access_denied/);
    await tab.close();
    await page.waitForSelector('[data-test=login-error]');
    expect(await text(page, '[data-test=login-error]')).toMatch(/login failed: .*access_denied/);
    expect(await page.$('[data-test=server-info]')).toBeNull();
  });

  it("goes through the provider's login and consent pages, comes back, and lists and calls tools", async () => {
    const tab = await clickLogin();
    await tab.waitForSelector('input[name=login]');
    await tab.type('input[name=login]', 'alice');
    await tab.type('input[name=password]', 'secret');
    await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
    await tab.waitForSelector('input[name=prompt][value=consent]');
    await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
    await tab.waitForSelector('[data-test=callback]');
    expect(new URL(tab.url()).origin).toBe(new URL(inspector.url).origin);
    expect(await text(tab, '[data-test=callback]')).toContain('Logged in');
    await tab.close();

    await page.waitForSelector('[data-test=login-state]');
    expect(await text(page, '[data-test=login-state]')).toContain('mcp:read');
    expect(await page.$('[data-test=login-error]')).toBeNull();
    await page.waitForSelector('[data-tool=whoami]');
    await page.click('[data-tool=whoami]');
    await page.waitForSelector('[data-test=call-form][data-ready]');
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.waitForFunction(() =>
      document.querySelector('[data-test=tool-result]')?.textContent?.includes('"sub":"alice"'),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'login.png') });
    const shown = await page.evaluate(() => document.documentElement.outerHTML);
    expect(shown).not.toMatch(/eyJ[\w-]+\.eyJ/); // no JWT anywhere in the page
  });

  it('asks for the wider scope a tool needs, and the waiting call completes after consent', async () => {
    await page.click('[data-tool=write]');
    await page.waitForSelector('[data-test=call-form][data-ready]');
    await page.click('[data-test=call-form] [data-test=submit]');
    await page.waitForSelector('[data-test=authorize-button]');
    expect(await page.$('[data-test=running]')).not.toBeNull(); // the call waits
    const opened = browser.browser.waitForTarget((t) => t.url().startsWith(issuer.issuer));
    await page.click('[data-test=authorize-button]');
    const tab = await (await opened).page();
    if (!tab) throw new Error('Authorize opened no tab');
    expect(await approveIn(tab)).toContain('Authorization received');
    await tab.close();
    await page.waitForFunction(() =>
      document.querySelector('[data-test=tool-result]')?.textContent?.includes('written'),
    );
    await page.waitForFunction(() =>
      document.querySelector('[data-test=login-state]')?.textContent?.includes('mcp:write'),
    );
  });

  it('keeps the tokens where `mcpkit login` keeps them: a second inspector connects at once', async () => {
    const second = await startInspectorCli([server.url], { MCPKIT_CONFIG_DIR: configDir });
    const other = await browser.browser.newPage();
    try {
      await other.goto(second.url);
      await other.waitForSelector('[data-test=login-state]');
      expect(await text(other, '[data-test=login-state]')).toContain('mcp:write');
      await other.waitForSelector('[data-tool=whoami]');
    } finally {
      await other.close();
      await second.stop();
    }
  });

  it('logs out: the tokens are forgotten and connecting needs a login again', async () => {
    await page.click('[data-test=logout]');
    await page.waitForSelector('[data-test=server-info]', { hidden: true });
    await page.click('[data-test=connect]');
    await page.waitForSelector('[data-test=connect-error]');
    expect(await text(page, '[data-test=connect-error]')).toMatch(/needs authorization/);
    await page.waitForSelector('[data-test=login-button]');
  });
});
