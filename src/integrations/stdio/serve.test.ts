/**
 * A handler's console.log on a stdio server does not vanish: while serving on this
 * process's stdout, console.log/info/debug go to stderr, with one warning that says to log
 * with console.error or ctx.log; the console is restored when the connection ends.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from '../../server/index.js';
import { serveStdio } from './serve.js';

afterEach(() => vi.restoreAllMocks());

describe('serveStdio and the console', () => {
  it('sends console.log to stderr with a one-time warning, and restores it at the end', async () => {
    const original = console.log;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const stdin = new PassThrough();
    const connection = await serveStdio(createServer({ name: 's', version: '1' }), {
      stdin,
      exitOnClose: false,
    });
    console.log('fetching', 42);
    console.info('again');
    expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/console\.log on a stdio server goes to stderr .*console\.error, or ctx\.log/),
    ]);
    expect(errors.mock.calls).toEqual([['fetching', 42], ['again']]);
    stdin.end();
    await connection.closed;
    expect(console.log).toBe(original);
  });

  it('leaves the console alone with redirectConsole: false', async () => {
    const original = console.log;
    const stdin = new PassThrough();
    const connection = await serveStdio(createServer({ name: 's', version: '1' }), {
      stdin,
      exitOnClose: false,
      redirectConsole: false,
    });
    expect(console.log).toBe(original);
    stdin.end();
    await connection.closed;
  });
});
