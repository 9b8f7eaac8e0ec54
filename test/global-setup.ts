import { execFileSync } from 'node:child_process';

/** Integration tests spawn the built CLI and servers, so build once before the run. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
