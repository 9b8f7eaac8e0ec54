/**
 * `npm test` on a fresh machine: the global setup installs the Debian packages the suite
 * drives (as root, with apt-get) or stops with one line naming them, and the build is skipped
 * only when no input changed (scripts/build-stamp.mjs). apt-get is faked on a private PATH.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePackages, SetupError, type Need } from '../global-setup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bin = mkdtempSync(join(tmpdir(), 'mcpkit-setup-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

const needs: Need[] = [
  { package: 'fake-tool-pkg', command: 'mcpkit-fake-tool' },
  { package: 'fake-file-pkg', command: join(bin, 'installed-file') },
];
/** PATH of the fake machine: its own bin, then sh and friends. */
const env = { PATH: `${bin}:/usr/bin:/bin` };

/** An apt-get that logs its arguments and, on install, creates what the packages provide (or fails). */
function fakeAptGet(install: 'works' | 'fails'): void {
  const provide = `printf '#!/bin/sh\\n' > ${bin}/mcpkit-fake-tool; chmod +x ${bin}/mcpkit-fake-tool; : > ${bin}/installed-file`;
  const onInstall = install === 'works' ? provide : 'exit 100';
  const script = `#!/bin/sh\necho "$@" >> ${bin}/apt.log\nif [ "$1" = install ]; then ${onInstall}; fi\n`;
  writeFileSync(join(bin, 'apt-get'), script);
  chmodSync(join(bin, 'apt-get'), 0o755);
  rmSync(join(bin, 'apt.log'), { force: true });
}

const setupError = (run: () => void): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SetupError);
    return (error as Error).message;
  }
  throw new Error('setup did not fail');
};

describe('the global setup on a machine without the packages', () => {
  it('as root without apt-get: stops with one line naming every missing package', () => {
    const message = setupError(() => ensurePackages({ needs, env: { PATH: bin }, root: true }));
    expect(message).toBe(
      'npm test needs fake-tool-pkg, fake-file-pkg; no apt-get here: install them with your package manager',
    );
  });

  it('not root: stops with the one command to run', () => {
    const message = setupError(() => ensurePackages({ needs, env, root: false }));
    expect(message).toBe(
      'npm test needs fake-tool-pkg, fake-file-pkg: run `sudo apt-get install -y fake-tool-pkg fake-file-pkg`',
    );
    expect(message).not.toContain('\n');
  });

  it('as root when apt-get fails: stops with one line saying what to install', () => {
    fakeAptGet('fails');
    const message = setupError(() => ensurePackages({ needs, env, root: true }));
    expect(message).toBe(
      'npm test needs fake-tool-pkg, fake-file-pkg: `apt-get install -y fake-tool-pkg fake-file-pkg` failed; run it yourself',
    );
  });

  it('as root with apt-get: installs the missing packages, then finds them', () => {
    fakeAptGet('works');
    ensurePackages({ needs, env, root: true });
    const log = execFileSync('cat', [join(bin, 'apt.log')], { encoding: 'utf8' });
    expect(log).toBe('update -qq\ninstall -y -qq fake-tool-pkg fake-file-pkg\n');
    rmSync(join(bin, 'apt.log'));
    ensurePackages({ needs, env, root: true }); // nothing missing now: apt-get is not run
    expect(() => execFileSync('cat', [join(bin, 'apt.log')], { stdio: 'ignore' })).toThrow();
  });
});

describe('scripts/build-stamp.mjs', () => {
  const hash = () =>
    execFileSync(process.execPath, ['scripts/build-stamp.mjs', '--print-hash'], {
      cwd: ROOT,
      encoding: 'utf8',
    });

  it('any new or changed input file changes the hash of the inputs; a test file does not', () => {
    const before = hash();
    expect(before).toMatch(/^[0-9a-f]{64}\n$/);
    const probe = join(ROOT, 'scripts', `.stamp-probe-${process.pid}.txt`);
    const testProbe = join(ROOT, 'scripts', `.stamp-probe-${process.pid}.test.ts`);
    try {
      writeFileSync(testProbe, '// a test: no build step reads it\n');
      expect(hash()).toBe(before);
      writeFileSync(probe, 'one');
      const added = hash();
      expect(added).not.toBe(before);
      writeFileSync(probe, 'two');
      expect(hash()).not.toBe(added);
    } finally {
      rmSync(probe, { force: true });
      rmSync(testProbe, { force: true });
    }
    expect(hash()).toBe(before);
  });
});
