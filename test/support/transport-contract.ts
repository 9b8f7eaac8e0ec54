/**
 * One contract every transport keeps, run against each of them (STYLE.md, tests): messages
 * arrive in the order they were sent, a large message goes through whole, cancellation
 * reaches the handler and the connection keeps serving, a dying peer is reported rather
 * than waited on, and a notification storm is delivered complete and in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, createClient, type ClientOptions } from '../../src/client/index.js';
import type { Transport } from '../../src/core/transport.js';
import { until } from './wait.js';

/** One connected client, and a way to make its server disappear abruptly. */
export interface ContractConnection {
  client: Client;
  /** Ends the server side without a goodbye (kills the process, drops the sockets...). */
  kill(): Promise<void>;
  /** Releases whatever the setup started; called after every case. */
  close(): Promise<void>;
}

/** Builds a fresh connection to the contract server for one case. */
export type ContractSetup = (options: Partial<ClientOptions>) => Promise<ContractConnection>;

/** The text of a tool result's first content block. */
export function textOf(result: { content: readonly unknown[] }): string {
  const first = result.content[0] as { type?: string; text?: string } | undefined;
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** Connects a client with the contract defaults over `transport`. */
export async function contractClient(transport: Transport, options: Partial<ClientOptions>): Promise<Client> {
  const client = createClient({ name: 'contract-client', version: '1.0.0', ...options });
  await client.connect(transport);
  return client;
}

/** Registers the contract cases for one transport (`name` shows in the report). */
export function describeTransport(name: string, setup: ContractSetup): void {
  describe(`transport contract: ${name}`, () => {
    const open: ContractConnection[] = [];
    const connect = async (options: Partial<ClientOptions> = {}): Promise<ContractConnection> => {
      const connection = await setup(options);
      open.push(connection);
      return connection;
    };
    afterEach(async () => {
      for (const c of open.splice(0)) await c.close();
    });

    it('delivers the notifications of a call in order, all before its result', async () => {
      const { client } = await connect();
      const seen: number[] = [];
      const result = await client.callTool('steps', { n: 50 }, { onprogress: (p) => seen.push(p.progress) });
      expect(textOf(result)).toBe('50 steps');
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('carries a 2 MiB message whole, both ways, with multi-byte characters intact', async () => {
      const { client } = await connect();
      const text = 'é😀x'.repeat(2 ** 21 / 8);
      expect(textOf(await client.callTool('echo', { text }))).toBe(text);
    });

    it('cancels a call: the handler sees the abort and the connection keeps serving', async () => {
      const { client } = await connect();
      const abort = new AbortController();
      // The tool reports progress once it runs: abort only then, so the server sees it.
      const call = client.callTool('wait', {}, { signal: abort.signal, onprogress: () => abort.abort() });
      await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
      await until(async () => textOf(await client.callTool('lastWaitAborted')) === 'true');
      expect(textOf(await client.callTool('echo', { text: 'still here' }))).toBe('still here');
    });

    it('reports a peer that dies mid-call instead of waiting on it', async () => {
      const connection = await connect();
      const call = connection.client.callTool('wait');
      await until(async () => textOf(await connection.client.callTool('echo', { text: 'up' })) === 'up');
      await connection.kill();
      await expect(call).rejects.toMatchObject({ name: 'LocalError' });
    });

    it('delivers a storm of 5 000 notifications complete and in order, then still answers', async () => {
      const logs: unknown[] = [];
      // The transport is under test here, not the client's log-rate cap (on by default).
      const { client } = await connect({
        logLevel: 'info',
        limits: { maxLogMessagesPerSecond: Infinity },
        onNotification: (n) => void (n.method === 'notifications/message' && logs.push(n.params?.data)),
      });
      expect(textOf(await client.callTool('storm', { n: 5000 }))).toBe('5000 logged');
      expect(logs).toEqual(Array.from({ length: 5000 }, (_, i) => i));
      expect(textOf(await client.callTool('echo', { text: 'after' }))).toBe('after');
    });
  });
}
