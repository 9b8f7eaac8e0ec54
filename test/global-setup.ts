import { execFileSync, spawnSync } from 'node:child_process';

/** Debian packages the suite drives for real: command on PATH → package that provides it. */
const DEBIAN_PACKAGES: Record<string, string> = {
  'redis-server': 'redis-server', // the Redis backend and fleet tests
  chromium: 'chromium', // the inspector's browser tests
  script: 'bsdutils', // the CLI's terminal test runs it under a pseudo-terminal
  jsonschema_suite: 'json-schema-test-suite', // the official JSON-Schema-Test-Suite the validation engines are checked on
};

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs the Debian packages the suite needs when they are missing (as root with apt-get,
 * as on a fresh machine); elsewhere says which to install instead of failing later.
 */
function ensurePackages(): void {
  const missing = Object.entries(DEBIAN_PACKAGES).filter(([command]) => !onPath(command));
  if (missing.length === 0) return;
  const packages = missing.map(([, name]) => name);
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    throw new Error(`npm test needs ${packages.join(', ')} (Debian: apt-get install ${packages.join(' ')})`);
  }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit' });
}

/**
 * Integration tests spawn the built CLI and servers, so build once before the run: tsc, then
 * the bundled entry points (scripts/bundle.mjs), as `npm run build` does (without the web app).
 * MCPKIT_SKIP_BUILD=1 skips it during development when dist/ is known to be fresh. Missing
 * Debian packages (redis-server, chromium, script) are installed first.
 */
export default function setup(): void {
  ensurePackages();
  if (process.env.MCPKIT_SKIP_BUILD === '1') return;
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { stdio: 'inherit' });
}
