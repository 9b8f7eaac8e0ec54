import { describe, expect, it } from 'vitest';
import type { LocalError } from '../core/errors.js';
import type { Transport, TransportSink } from '../core/transport.js';
import { createClient } from './index.js';

/** A "server" that writes a line of junk to its stdout and never answers. */
function junkServer(): { transport: Transport; sent: unknown[] } {
  const sent: unknown[] = [];
  let sink: TransportSink | undefined;
  const transport: Transport = {
    start: (s) => {
      sink = s;
      queueMicrotask(() => sink?.frame('hello from a server that prints to stdout'));
    },
    send: (m) => void sent.push(m),
    close: async () => sink?.closed(),
  };
  return { transport, sent };
}

describe('a server that prints junk on its stdout', () => {
  it('is not answered with -32700, and the connect error quotes the junk', async () => {
    const { transport, sent } = junkServer();
    const client = createClient({ name: 't', version: '1', probeTimeoutMs: 20, timeoutMs: 40 });
    const error = await client.connect(transport).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain('hello from a server that prints to stdout');
    expect(sent.some((m) => typeof m === 'object' && m !== null && 'error' in m)).toBe(false);
  });
});

describe('a server whose first output is not JSON-RPC', () => {
  it('fails the connect at once, long before any timeout, quoting the output', async () => {
    const { transport } = junkServer();
    const client = createClient({ name: 't', version: '1', probeTimeoutMs: 60_000, timeoutMs: 60_000 });
    const started = Date.now();
    const error = (await client.connect(transport).catch((e: unknown) => e)) as LocalError;
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toMatch(/not JSON-RPC before any message: "hello from a server/);
    expect(error.message).toMatch(/must log to stderr: console.error, not console.log/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
