import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM } from './support/chromium-path.js';

/** A Debian package the suite drives for real, and how the tests find what it installs. */
export interface Need {
  /** The Debian package that provides it. */
  readonly package: string;
  /** A command looked up on PATH, or an absolute file the tests start (they use fixed paths). */
  readonly command: string;
}

/** What the suite starts: the file or command each test uses → the package that provides it. */
const DEBIAN_NEEDS: readonly Need[] = [
  { package: 'redis-server', command: '/usr/bin/redis-server' }, // bench/harness/redis.ts
  { package: 'chromium', command: CHROMIUM }, // the inspector's browser tests
  { package: 'bsdutils', command: 'script' }, // the CLI's terminal test (a pseudo-terminal)
  // The official JSON-Schema-Test-Suite the validation engines are checked on (suite.test.ts).
  {
    package: 'json-schema-test-suite',
    command: process.env.JSON_SCHEMA_TEST_SUITE ?? '/usr/share/json-schema-test-suite/tests',
  },
];

/** How {@link ensurePackages} looks and installs (the test of this file fakes them). */
interface SetupEnv {
  readonly needs: readonly Need[];
  readonly env: NodeJS.ProcessEnv;
  readonly root: boolean;
}

/** A setup failure whose message is the one line to show (what to install, and how). */
export class SetupError extends Error {}

function present(need: Need, env: NodeJS.ProcessEnv): boolean {
  if (need.command.startsWith('/')) return existsSync(need.command);
  const found = spawnSync('sh', ['-c', 'command -v "$0"', need.command], { stdio: 'ignore', env });
  return found.status === 0;
}

/**
 * Installs the Debian packages the suite needs when they are missing (as root with apt-get,
 * as on a fresh machine), then checks they are there.
 * @throws SetupError with one line naming the packages to install when it cannot.
 */
export function ensurePackages(setup: SetupEnv): void {
  const missing = () => setup.needs.filter((need) => !present(need, setup.env)).map((n) => n.package);
  const packages = missing();
  if (packages.length === 0) return;
  const install = `apt-get install -y ${packages.join(' ')}`;
  if (!setup.root) throw new SetupError(`npm test needs ${packages.join(', ')}: run \`sudo ${install}\``);
  if (!present({ package: 'apt', command: 'apt-get' }, setup.env))
    throw new SetupError(
      `npm test needs ${packages.join(', ')}; no apt-get here: install them with your package manager`,
    );
  const apt = (args: string[]): boolean =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: setup.env }).status === 0;
  const ok = apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]);
  if (!ok)
    throw new SetupError(`npm test needs ${packages.join(', ')}: \`${install}\` failed; run it yourself`);
  const still = setup.needs.filter((need) => !present(need, setup.env));
  if (still.length > 0) {
    const where = still.map((need) => `${need.command} (${need.package})`).join(', ');
    throw new SetupError(`npm test needs ${where}, still not found after \`${install}\``);
  }
}

/**
 * Integration tests spawn the built CLI and servers, so build once before the run: tsc, then
 * the bundled entry points (scripts/bundle.mjs), as `npm run build` does (without the web app),
 * skipped when dist/ is already built from the same inputs (scripts/build-stamp.mjs).
 * MCPKIT_SKIP_BUILD=1 skips it during development. Missing Debian packages (redis-server,
 * chromium, script, the JSON-Schema-Test-Suite) are installed first; when they cannot be, the run stops with one line.
 */
export default function setup(): void {
  try {
    ensurePackages({ needs: DEBIAN_NEEDS, env: process.env, root: process.getuid?.() === 0 });
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (process.env.MCPKIT_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build-stamp.mjs', 'test'], { stdio: 'inherit' });
}
