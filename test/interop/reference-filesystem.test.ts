/**
 * Our client drives the official filesystem server (`@modelcontextprotocol/server-filesystem`,
 * built on the v1 SDK, legacy era) on a fresh temporary folder, over stdio.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyText, texts } from './helpers.js';
import { closeSessions, connectTo, type Session } from './reference-session.js';

afterAll(async () => {
  expect(await closeSessions()).toEqual([]);
});

describe('our client against the official filesystem server', () => {
  let dir: string;
  let fs: Session;

  beforeAll(async () => {
    // realpath: the server resolves symlinks (macOS /tmp), and its answers name real paths.
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-interop-fs-')));
    fs = await connectTo('server-filesystem', [dir]);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('detects the legacy era and negotiates 2025-11-25', () => {
    expect(fs.client.era).toBe('legacy');
    expect(fs.client.protocolVersion).toBe('2025-11-25');
    expect(fs.client.serverInfo?.name).toBe('secure-filesystem-server');
    expect(fs.client.serverCapabilities?.tools).toBeDefined();
  });

  it('lists the file tools', async () => {
    const names = (await fs.client.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'write_file',
        'read_text_file',
        'list_directory',
        'search_files',
        'create_directory',
      ]),
    );
  });

  it('writes a file that lands on disk and reads it back', async () => {
    const path = join(dir, 'hello.txt');
    const content = 'hello from mcpkit\nsecond line\n';
    const written = await fs.client.callTool('write_file', { path, content });
    expect(written.isError).toBeFalsy();
    expect(onlyText(written)).toContain('Successfully wrote');
    expect(readFileSync(path, 'utf8')).toBe(content);

    const read = await fs.client.callTool('read_text_file', { path });
    expect(read.isError).toBeFalsy();
    expect(onlyText(read)).toBe(content);
    // The tool declares an outputSchema, so the client has already checked structuredContent.
    expect(read.structuredContent).toEqual({ content });

    const head = await fs.client.callTool('read_text_file', { path, head: 1 });
    expect(onlyText(head)).toBe('hello from mcpkit');
  });

  it('creates a directory and lists both entries', async () => {
    await fs.client.callTool('create_directory', { path: join(dir, 'sub') });
    await fs.client.callTool('write_file', { path: join(dir, 'sub', 'nested.txt'), content: 'nested' });
    const listing = onlyText(await fs.client.callTool('list_directory', { path: dir }));
    expect(listing.split('\n').sort()).toEqual(['[DIR] sub', '[FILE] hello.txt']);
  });

  it('finds the files by glob with search_files', async () => {
    const found = onlyText(await fs.client.callTool('search_files', { path: dir, pattern: '**/*.txt' }));
    expect(found.split('\n').sort()).toEqual([join(dir, 'hello.txt'), join(dir, 'sub', 'nested.txt')]);
    const none = onlyText(await fs.client.callTool('search_files', { path: dir, pattern: '**/*.md' }));
    expect(none).toBe('No matches found');
  });

  it('reports a path outside the allowed directory as a tool error', async () => {
    const result = await fs.client.callTool('read_text_file', {
      path: join(tmpdir(), 'definitely-not-allowed'),
    });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toMatch(/Access denied/);
  });
});
