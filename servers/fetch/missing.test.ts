/**
 * The fetch server's packages are optional peers of mcpkit: without one, creating the server
 * fails with MISSING_DEPENDENCY naming the package and the npm install line.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('turndown', () => {
  throw Object.assign(new Error("Cannot find package 'turndown' imported from servers/fetch/deps.ts"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
});

describe('fetch server without one of its packages', () => {
  it('refuses to start with MISSING_DEPENDENCY and the install line', async () => {
    const { createReferenceServer } = await import('./server.js');
    await expect(createReferenceServer([], {})).rejects.toMatchObject({
      code: 'MISSING_DEPENDENCY',
      message:
        'the fetch server needs the package turndown: npm install undici linkedom @mozilla/readability turndown robots-parser',
    });
  });
});
