/**
 * The filesystem server never reads or writes outside its allowed directories: each way out
 * (`..`, encoded dots, absolute paths, symlinks, hard links, a root that is a symlink, a
 * swap between check and use, special files) is tried against the server in-process, and
 * the file outside must stay unread and unchanged.
 */
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { connect } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/testing/index.js';
import { readText, writeAtomic } from './io.js';
import { validatePath } from './paths.js';
import { createReferenceServer } from './server.js';

const SECRET = 'top secret';
let base: string;
let root: string;
let outside: string;
let client: Client | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fs-safety-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(root, 'inside.txt'), 'inside');
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function open(dirs: string[] = [root]): Promise<Client> {
  const server = await createReferenceServer(dirs, {});
  const [a, b] = createLinkedPair();
  await connect(server, a);
  client = createClient({ name: 'safety', version: '0', era: 'legacy' });
  await client.connect(b);
  return client;
}

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = await client!.callTool(name, args);
  return { text: (result.content[0] as { text: string }).text, isError: result.isError === true };
}

function expectRefused(answer: { text: string; isError: boolean }): void {
  expect(answer.isError).toBe(true);
  expect(answer.text).not.toContain(SECRET);
}

describe('the filesystem server stays inside its roots', () => {
  it('refuses `..` out of a root, absolute or relative', async () => {
    await open();
    expectRefused(await call('read_text_file', { path: join(root, '..', 'outside', 'secret.txt') }));
    expectRefused(await call('read_text_file', { path: '../outside/secret.txt' }));
    expectRefused(await call('write_file', { path: join(root, '..', 'outside', 'new.txt'), content: 'x' }));
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('treats encoded dots as a name in a tool path and resolves them before the check in a file URI', async () => {
    await open();
    expectRefused(await call('read_text_file', { path: join(root, '%2e%2e', 'outside', 'secret.txt') }));
    const uri = `${pathToFileURL(root).href}/%2e%2e/outside/secret.txt`;
    await expect(client!.readResource(uri)).rejects.toMatchObject({ code: -32002 });
    const inside = await client!.readResource(`${pathToFileURL(root).href}/inside.txt`);
    expect(inside.contents[0]).toMatchObject({ text: 'inside' });
  });

  it('refuses absolute paths outside every root', async () => {
    await open();
    expectRefused(await call('read_text_file', { path: join(outside, 'secret.txt') }));
    expectRefused(await call('get_file_info', { path: join(outside, 'secret.txt') }));
    expectRefused(
      await call('move_file', { source: join(outside, 'secret.txt'), destination: join(root, 's.txt') }),
    );
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('refuses a symlink to a file or a directory outside, for reading and writing', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'dirlink'));
    await open();
    expectRefused(await call('read_text_file', { path: join(root, 'link.txt') }));
    expectRefused(await call('write_file', { path: join(root, 'link.txt'), content: 'pwned' }));
    expectRefused(await call('list_directory', { path: join(root, 'dirlink') }));
    expectRefused(await call('write_file', { path: join(root, 'dirlink', 'new.txt'), content: 'x' }));
    const found = await call('search_files', { path: root, pattern: '**/*' });
    expect(found.text).not.toContain('secret');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses to read a hard link to a file outside, and a write replaces the link, not the file', async () => {
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    await open();
    expectRefused(await call('read_text_file', { path: join(root, 'hard.txt') }));
    expectRefused(
      await call('edit_file', { path: join(root, 'hard.txt'), edits: [{ oldText: 'top', newText: 'no' }] }),
    );
    expect((await call('write_file', { path: join(root, 'hard.txt'), content: 'mine' })).isError).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(join(root, 'hard.txt'), 'utf8')).toBe('mine');
  });

  it('serves a root that is a symlink, and refuses once the link points elsewhere', async () => {
    const link = join(base, 'rootlink');
    symlinkSync(root, link);
    await open([link]);
    expect((await call('read_text_file', { path: join(link, 'inside.txt') })).text).toBe('inside');
    unlinkSync(link);
    symlinkSync(outside, link);
    expectRefused(await call('read_text_file', { path: join(link, 'secret.txt') }));
  });

  it('catches a file swapped for a symlink between the check and the read', async () => {
    const dirs = [root];
    const checked = await validatePath(join(root, 'inside.txt'), dirs);
    unlinkSync(checked);
    symlinkSync(join(outside, 'secret.txt'), checked);
    await expect(readText(checked, dirs)).rejects.toThrow(/ELOOP|symbolic link/);
  });

  it('catches a directory swapped for a symlink between the check and the read or the write', async () => {
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'secret.txt'), 'inside');
    const dirs = [root];
    const toRead = await validatePath(join(root, 'd', 'secret.txt'), dirs);
    const toWrite = await validatePath(join(root, 'd', 'new.txt'), dirs);
    renameSync(join(root, 'd'), join(root, 'd-old'));
    symlinkSync(outside, join(root, 'd'));
    await expect(readText(toRead, dirs)).rejects.toThrow(/Access denied/);
    await expect(writeAtomic(toWrite, 'x', dirs)).rejects.toThrow(/Access denied/);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses FIFOs and devices without blocking', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await open([root, '/dev']);
    expectRefused(await call('read_text_file', { path: join(root, 'pipe') }));
    expectRefused(await call('write_file', { path: join(root, 'pipe'), content: 'x' }));
    const zero = await call('read_text_file', { path: '/dev/zero' });
    expect(zero).toEqual({ isError: true, text: 'Access denied - not a regular file: /dev/zero' });
  });
});
