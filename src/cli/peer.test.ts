import { describe, expect, it } from 'vitest';
import { LocalError } from '../core/index.js';
import { loadPeer } from './peer.js';

describe('loadPeer', () => {
  it('turns a missing optional peer into MISSING_DEPENDENCY naming the feature and the install line', async () => {
    const error = await loadPeer(
      { name: 'esbuild-absent', feature: '`mcpkit dev`', install: 'npm install --save-dev esbuild-absent' },
      () => import(/* @vite-ignore */ ['esbuild', 'absent'].join('-')),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('MISSING_DEPENDENCY');
    expect((error as LocalError).message).toBe(
      '`mcpkit dev` needs the package esbuild-absent: npm install --save-dev esbuild-absent',
    );
  });

  it('passes any other failure through', async () => {
    await expect(
      loadPeer({ name: 'x', feature: 'y' }, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
  });
});
