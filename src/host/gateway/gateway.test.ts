/**
 * The gateway over real servers: the official filesystem and everything servers (stdio,
 * legacy) and our everything server as a modern-only server over HTTP, served as one
 * server over Streamable HTTP to the official v2 client (pinned to 2026-07-28, MRTR) and
 * the official v1 client (legacy sessions).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createEverythingServer } from '../../../servers/everything/server.js';
import { referenceEntry } from '../../../test/interop/helpers.js';
import { whenHost } from '../../../test/support/host-fixtures.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

const text = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('the gateway in front of legacy stdio servers and a modern-only HTTP server', () => {
  let dir: string;
  let modernOnly: Served;
  let host: Host;
  let gateway: Gateway;
  let front: Served;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-gateway-')));
    writeFileSync(join(dir, 'note.txt'), 'read through the gateway\n');
    modernOnly = await serve(createEverythingServer({ eras: ['modern'] }), { port: 0 });
    host = createHost({
      servers: {
        filesystem: { command: process.execPath, args: [referenceEntry('server-filesystem'), dir] },
        everything: { command: process.execPath, args: [referenceEntry('server-everything')] },
        modern: { url: modernOnly.url },
      },
      policy: { elicitation: 'allow', sampling: 'allow', roots: 'allow' },
    });
    await host.start();
    gateway = createGateway(host);
    front = await serve(gateway.server, { port: 0 });
  });

  afterAll(async () => {
    await front?.close();
    gateway?.close();
    await host?.close();
    await modernOnly?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the official v2 client (2026-07-28) reads a file and completes a legacy elicitation through the MRTR bridge', async () => {
    const elicited: unknown[] = [];
    const client = new ModernClient(
      { name: 'official-v2-client', version: '2.4.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      elicited.push(request.params);
      return { action: 'accept', content: { name: 'Ada', check: true } };
    });
    await client.connect(new ModernHttp(new URL(front.url)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['filesystem__read_text_file', 'modern__test_elicitation']),
      );
      const read = await client.callTool({
        name: 'filesystem__read_text_file',
        arguments: { path: join(dir, 'note.txt') },
      });
      expect(text(read)).toContain('read through the gateway');
      await whenHost(host, () =>
        host.tools().find((t) => t.name === 'everything__trigger-elicitation-request'),
      );
      const answered = await client.callTool({
        name: 'everything__trigger-elicitation-request',
        arguments: {},
      });
      expect(elicited).toHaveLength(1);
      expect(elicited[0]).toMatchObject({ message: expect.stringContaining('Please provide inputs') });
      expect(text(answered)).toContain('Name: Ada');
      expect(gateway.parkedCalls).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("the official v1 client (legacy) answers a modern-only server's input_required on its session", async () => {
    const client = new LegacyClient(
      { name: 'official-v1-client', version: '1.32.2' },
      { capabilities: { elicitation: {} } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    await client.connect(new LegacyHttp(new URL(front.url)));
    try {
      const result = await client.callTool({
        name: 'modern__test_elicitation',
        arguments: { message: 'Who are you?' },
      });
      expect(asked).toEqual([expect.objectContaining({ message: 'Who are you?' })]);
      expect(text(result)).toContain('ada');
    } finally {
      await client.close();
    }
  });
});
