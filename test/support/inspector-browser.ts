/**
 * Drives `mcpkit inspect --ui` in Debian's chromium (no browser download): starts the built
 * CLI, reads the URL it prints, and launches one headless browser per test file.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM } from './chromium-path.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/src/cli/main.js');

/** Where browser tests leave their screenshots (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'inspector');

/** Builds the web app when `dist/ui` is missing (the global setup builds dist/ without it). */
export function ensureUiBuilt(): void {
  if (existsSync(join(ROOT, 'dist/ui/index.html'))) return;
  execFileSync('npx', ['vite', 'build', '--config', 'ui/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * A headless chromium with the flags this machine needs, plus `extraArgs`; `close()` also
 * removes its profile.
 */
export async function launchBrowser(
  extraArgs: string[] = [],
): Promise<{ browser: Browser; close: () => Promise<void> }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'mcpkit-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
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

/** A running `mcpkit inspect --ui`. */
export interface RunningInspector {
  url: string;
  stop(): Promise<void>;
}

function urlFrom(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /mcpkit inspector: (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`inspect --ui exited with ${code}: ${err}`)));
  });
}

/**
 * Starts the built CLI's `inspect --ui` with `args` (and `env` added to this process's
 * environment); resolves with the URL it prints.
 */
export async function startInspectorCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<RunningInspector> {
  const child = spawn(process.execPath, [CLI, 'inspect', '--ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await urlFrom(child);
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
