import { describe, expect, it } from 'vitest';
import { LocalError } from './errors.js';
import { loadOptional } from './optional.js';

describe('loadOptional', () => {
  it('says which feature needs a missing package and the npm command that installs it', async () => {
    const missing = 'mcpkit-no-such-package-' + 'x';
    const failure: unknown = await loadOptional(missing, 'mcpkit/tool-search', () => import(missing)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LocalError);
    expect(failure).toMatchObject({
      code: 'MISSING_DEPENDENCY',
      message: `mcpkit/tool-search needs the package ${missing}: npm install ${missing}`,
    });
  });

  it('returns the module when it is installed, and passes any other failure through as it is', async () => {
    const module = await loadOptional('minisearch', 'tool search', () => import('minisearch'));
    expect(typeof module.default).toBe('function');
    const broken = new Error('boom');
    await expect(loadOptional('minisearch', 'tool search', () => Promise.reject(broken))).rejects.toBe(
      broken,
    );
  });
});
