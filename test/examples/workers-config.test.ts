/**
 * The Workers setup works as written on the README's Node (20): its compatibility_date is
 * one the last wrangler that runs on Node 20 accepts (wrangler 4.86.0, workerd 1.20260426.1;
 * later wranglers need Node 22 and accept older dates too), and the guide's Worker sets the
 * allowed hosts, so `mcpkit check` does not report http.host against it. The example itself
 * runs under wrangler in test/runtimes/workers.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencesOf } from '../support/doc-blocks.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The newest date workerd 1.20260426.1 (in wrangler 4.86.0, engines node >=20.3.0) accepts. */
const NEWEST_ON_NODE_20 = '2026-04-26';

function compatibilityDate(jsonc: string): string | undefined {
  return /"compatibility_date"\s*:\s*"(\d{4}-\d{2}-\d{2})"/.exec(jsonc)?.[1];
}

describe('the Workers setup on Node 20', () => {
  const guide = readFileSync(join(ROOT, 'docs/guide/deploying.md'), 'utf8');
  const fences = fencesOf('docs/guide/deploying.md', guide);

  it('uses a compatibility_date that wrangler 4.86 accepts, in the example and in the guide', () => {
    const example = compatibilityDate(readFileSync(join(ROOT, 'examples/workers/wrangler.jsonc'), 'utf8'));
    const documented = fences.filter((f) => f.lang === 'jsonc').map((f) => compatibilityDate(f.code));
    expect(documented.length).toBeGreaterThan(0);
    for (const date of [example, ...documented]) {
      expect(date).toBeDefined();
      expect(date! <= NEWEST_ON_NODE_20, `${date} is newer than ${NEWEST_ON_NODE_20}`).toBe(true);
    }
  });

  it("sets the allowed hosts in the guide's Worker", () => {
    const worker = fences.find((f) => f.lang === 'ts' && f.code.includes('createWorker('));
    expect(worker?.code).toMatch(/allowedHosts/);
  });
});
