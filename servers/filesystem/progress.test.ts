/**
 * Progress of the recursive tools, `directory_tree` and `search_files`, on both eras: a call
 * with a progress token gets `notifications/progress` for that token whose progress increases
 * and counts the directories read (the last one counts them all), rate-limited to one per
 * PROGRESS_INTERVAL_MS (plus the first and the last) however many directories the walk reads;
 * a call without a token gets none.
 * Source: 2026-07-28 basic/patterns/progress.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERAS, openEra, type EraClient } from '../../test/support/era-client.js';
import { createReferenceServer } from './server.js';
import { PROGRESS_INTERVAL_MS } from './walk.js';

/** Directories in the fixture, the root included: many more than the walk may report. */
const WIDE = 30;
const DEEP = 10;
const DIRECTORIES = 1 + WIDE + WIDE * DEEP;

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fs-progress-')));
  for (let i = 0; i < WIDE; i++)
    for (let j = 0; j < DEEP; j++) {
      mkdirSync(join(root, `d${i}`, `e${j}`), { recursive: true });
      writeFileSync(join(root, `d${i}`, `e${j}`, 'f.txt'), 'x');
    }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CALLS = [
  ['directory_tree', () => ({ path: root })],
  ['search_files', () => ({ path: root, pattern: '**/f.txt' })],
] as const;

describe.each(ERAS)('filesystem progress on the %s era', (era) => {
  let client: EraClient;
  beforeEach(async () => {
    client = await openEra(await createReferenceServer([root], {}), era);
  });
  afterEach(async () => {
    await client.close();
    expect(client.harness.violations).toEqual([]);
  });

  const progressOf = (token?: string) =>
    client.harness.notifications
      .filter((n) => n.method === 'notifications/progress')
      .filter((n) => token === undefined || n.params?.progressToken === token)
      .map((n) => n.params as { progress: number; total?: number; message?: unknown });

  it.each(CALLS)(
    '%s reports increasing counts of directories read, bounded in number, the last counting all',
    async (tool, args) => {
      const started = performance.now();
      const result = await client.call(tool, args(), `${tool}-token`);
      const elapsed = performance.now() - started;
      expect(result.isError).not.toBe(true);
      const seen = progressOf(`${tool}-token`);
      expect(seen.length).toBeGreaterThan(0);
      expect(progressOf()).toHaveLength(seen.length);
      const counts = seen.map((p) => p.progress);
      counts.forEach((count, i) => {
        expect(Number.isInteger(count)).toBe(true);
        expect(count).toBeGreaterThan(i === 0 ? 0 : counts[i - 1]!);
      });
      expect(counts.at(-1)).toBe(DIRECTORIES);
      expect(seen.every((p) => typeof p.message === 'string' && p.message.length <= 4200)).toBe(true);
      // One at the start, one at the end, and at most one per interval between them.
      expect(seen.length).toBeLessThanOrEqual(2 + Math.floor(elapsed / PROGRESS_INTERVAL_MS));
    },
  );

  it.each(CALLS)('%s sends no progress without a progress token', async (tool, args) => {
    const result = await client.call(tool, args());
    expect(result.isError).not.toBe(true);
    expect(progressOf()).toEqual([]);
  });
});
