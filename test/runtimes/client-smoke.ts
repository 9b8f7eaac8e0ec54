/**
 * The client smoke test (smoke.ts) from the command line of Node, Bun or Deno.
 * Usage: RUNTIME client-smoke.js URL modern|legacy — prints one line, exits 1 on any failure.
 */
import { smoke } from './smoke.js';

const [url, era] = process.argv.slice(-2);

smoke(url ?? '', era ?? '').then(
  (summary) => console.log(`client smoke ${era}: ${summary}`),
  (error: unknown) => {
    console.error(
      `client smoke ${era}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
