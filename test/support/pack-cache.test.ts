/**
 * The pack cache is only as good as its digest: the files it hashes must be exactly the files
 * `npm pack` puts in the tarball, or a change to an unhashed file would reuse a stale one.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cachedTarball, packedFiles } from './pack-cache.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the pack cache', () => {
  it('hashes exactly the files npm pack puts in the tarball', async () => {
    const tarball = await cachedTarball(ROOT);
    const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '' && !line.endsWith('/'))
      .map((line) => line.replace(/^package\//, ''))
      .sort();
    expect(packedFiles(ROOT)).toEqual(listed);
  }, 120_000);

  it('gives the same tarball to a second caller without packing again', async () => {
    expect(await cachedTarball(ROOT)).toBe(await cachedTarball(ROOT));
  }, 120_000);
});
