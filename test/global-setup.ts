import { execFileSync } from 'node:child_process';

/**
 * Integration tests spawn the built CLI and servers, so build once before the run: tsc, then
 * the bundled entry points (scripts/bundle.mjs), as `npm run build` does (without the web app).
 * MCPKIT_SKIP_BUILD=1 skips it during development when dist/ is known to be fresh.
 */
export default function setup(): void {
  if (process.env.MCPKIT_SKIP_BUILD === '1') return;
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { stdio: 'inherit' });
}
