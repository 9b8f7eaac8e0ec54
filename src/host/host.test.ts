import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, hostFixture, whenHost, type HostFixture } from '../../test/support/host-fixtures.js';
import { referenceEntry } from '../../test/interop/helpers.js';
import { createHost, type Host } from './index.js';

describe('a host over the official filesystem, everything and memory servers (stdio) and ours (HTTP)', () => {
  let fixture: HostFixture;
  let host: Host;
  const elicited: string[] = [];

  beforeAll(async () => {
    fixture = await hostFixture();
    host = createHost({
      servers: fixture.config,
      reconnect: { baseMs: 20, maxMs: 200 },
      handlers: {
        elicitation: async (_params, { server }) => {
          elicited.push(server);
          return { action: 'accept', content: { username: 'ada', name: 'ada', email: 'ada@example.com' } };
        },
      },
    });
    await host.start();
  });

  afterAll(async () => {
    await host?.close();
    await fixture?.cleanup();
  });

  it('connects all four in parallel, each with its era', () => {
    const status = Object.fromEntries(host.status().map((s) => [s.name, s]));
    expect(Object.values(status).map((s) => s.state)).toEqual(['ready', 'ready', 'ready', 'ready']);
    expect(status.filesystem?.era).toBe('legacy');
    expect(status.memory?.era).toBe('legacy');
    expect(status.ours?.era).toBe('modern');
  });

  it('merges the tools under server__tool names', () => {
    const names = host.tools().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'filesystem__read_text_file',
        'everything__echo',
        'memory__create_entities',
        'ours__test_simple_text',
      ]),
    );
    const read = host.tools().find((t) => t.name === 'filesystem__read_text_file');
    expect(read).toMatchObject({ server: 'filesystem', originalName: 'read_text_file' });
    expect(read?.definition.inputSchema).toBeDefined();
    expect(new Set(names).size).toBe(names.length);
  });

  it('calls one tool of each server', async () => {
    const file = await host.callTool('filesystem__read_text_file', { path: `${fixture.dir}/hello.txt` });
    expect(JSON.stringify(file.content)).toContain('hello from the host test');
    const echo = await host.callTool('everything__echo', { message: 'hi' });
    expect(JSON.stringify(echo.content)).toContain('hi');
    const created = await host.callTool('memory__create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }],
    });
    expect(created.isError ?? false).toBe(false);
    const ours = await host.callTool('ours__test_simple_text');
    expect(ours.content[0]).toMatchObject({ type: 'text' });
  });

  it('routes a server-initiated elicitation to the host handler with the server name', async () => {
    await whenHost(host, () =>
      host.tools().find((t) => t.name === 'everything__trigger-elicitation-request'),
    );
    const result = await host.callTool('everything__trigger-elicitation-request');
    expect(elicited).toContain('everything');
    expect(JSON.stringify(result.content)).toContain('ada');
    const modern = await host.callTool('ours__test_elicitation', { message: 'who?' });
    expect(elicited).toContain('ours');
    expect(JSON.stringify(modern.content)).toContain('ada');
  });

  it('carries progress end to end', async () => {
    const updates: number[] = [];
    await host.callTool('ours__test_tool_with_progress', {}, { onprogress: (u) => updates.push(u.progress) });
    expect(updates.length).toBeGreaterThan(0);
  });

  it('follows a list change announced by a modern server (listen)', async () => {
    const changed = new Promise((resolve) => {
      const off = host.on('change', (e) => {
        if (e.server === 'ours' && e.kinds.includes('tools')) resolve((off(), e));
      });
    });
    await host.callTool('ours__test_trigger_tool_change');
    await expect(changed).resolves.toMatchObject({ server: 'ours', kinds: ['tools'] });
  });

  it('survives a server being killed: status changes, the others work, it reconnects', async () => {
    const before = host.status().find((s) => s.name === 'memory');
    const pid = before?.pid as number;
    expect(alive(pid)).toBe(true);
    const states: string[] = [];
    const off = host.on('status', (s) => s.name === 'memory' && states.push(s.state));
    process.kill(pid, 'SIGKILL');
    const back = await whenHost(host, () => {
      const s = host.status().find((x) => x.name === 'memory');
      return s?.state === 'ready' && s.pid !== pid ? s : undefined;
    });
    off();
    expect(states[0]).toBe('reconnecting');
    expect(back.pid).not.toBe(pid);
    const echo = await host.callTool('everything__echo', { message: 'still here' });
    expect(JSON.stringify(echo.content)).toContain('still here');
    const graph = await host.callTool('memory__read_graph', {});
    expect(JSON.stringify(graph.content)).toContain('Ada');
  });

  it('leaves no child processes after close', async () => {
    const pids = host.status().flatMap((s) => (s.pid === undefined ? [] : [s.pid]));
    expect(pids.length).toBe(3);
    await host.close();
    expect(pids.filter(alive)).toEqual([]);
    expect(host.status().map((s) => s.state)).toEqual(['closed', 'closed', 'closed', 'closed']);
  });
});

describe('per-server input policy and roots', () => {
  it('declares only what the policy allows, and answers roots/list with the server’s configured roots', async () => {
    const host = createHost({
      servers: {
        everything: {
          command: process.execPath,
          args: [referenceEntry('server-everything')],
          policy: { elicitation: 'deny' },
          roots: [{ uri: 'file:///work/project', name: 'project' }],
        },
      },
      handlers: { elicitation: async () => ({ action: 'decline' }) },
    });
    try {
      await host.start();
      // server-everything registers its client-dependent tools after initialization.
      await whenHost(host, () => host.tools().find((t) => t.name === 'everything__get-roots-list'));
      expect(host.tools().map((t) => t.name)).not.toContain('everything__trigger-elicitation-request');
      const roots = await host.callTool('everything__get-roots-list');
      expect(JSON.stringify(roots.content)).toContain('file:///work/project');
    } finally {
      await host.close();
    }
  });
});
