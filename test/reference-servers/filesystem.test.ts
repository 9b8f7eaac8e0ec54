/**
 * mcpkit's filesystem server against the official `@modelcontextprotocol/server-filesystem`,
 * each a child process over stdio: the same tools/list and the same answer to every call of
 * a corpus (errors included), the official one on the legacy era, ours on both. Each server
 * gets its own copy of the same directory; only its path and the dates are normalised.
 */
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../src/client/index.js';
import {
  comparableAnswer,
  comparableTool,
  normalise,
  officialEntry,
  ourEntry,
  settle,
  startServer,
} from '../support/reference-servers.js';

const SLOW = { timeout: 120_000 };
const made: string[] = [];

/** A fresh directory holding the corpus's files. */
function fixture(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fs-diff-')));
  made.push(root);
  mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  writeFileSync(join(root, 'crlf.txt'), 'x\r\ny\r\nz');
  writeFileSync(join(root, 'README.md'), '# title\n\n    indented line\nend\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'bee');
  writeFileSync(join(root, 'sub', 'deep', 'c.txt'), 'sea'.repeat(700));
  writeFileSync(join(root, 'node_modules', 'm.txt'), 'm');
  writeFileSync(join(root, 'pixel.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  writeFileSync(join(root, 'data.bin'), Buffer.from([0, 1, 2, 255]));
  return root;
}

/** One call of the corpus: tool, arguments (`@` is the fixture's root), and whether they break the schema. */
type Call = [tool: string, args: Record<string, unknown>, schemaInvalid?: boolean];

const CORPUS: Call[] = [
  ['list_allowed_directories', {}],
  ['read_text_file', { path: '@/a.txt' }],
  ['read_text_file', { path: 'a.txt' }],
  ['read_text_file', { path: '@/a.txt', head: 2 }],
  ['read_text_file', { path: '@/a.txt', tail: 2 }],
  ['read_text_file', { path: '@/crlf.txt', tail: 2 }],
  ['read_text_file', { path: '@/a.txt', head: 1, tail: 1 }],
  ['read_text_file', { path: '@/missing.txt' }],
  ['read_text_file', { path: '/etc/passwd' }],
  ['read_text_file', { path: '@/../escape.txt' }],
  ['read_text_file', { path: '@/sub/%2e%2e/a.txt' }],
  ['read_text_file', { path: 'C:\\Windows\\win.ini' }],
  ['read_file', { path: '@/sub/b.txt' }],
  ['read_multiple_files', { paths: ['@/a.txt', '@/missing.txt', '/etc/hostname', '@/sub/b.txt'] }],
  ['read_media_file', { path: '@/pixel.png' }],
  ['read_media_file', { path: '@/data.bin' }],
  ['write_file', { path: '@/new.txt', content: 'fresh\n' }],
  ['write_file', { path: '@/a.txt', content: 'one\ntwo\nthree\nfour\nfive\nsix\n' }],
  ['write_file', { path: '@/nodir/x.txt', content: 'x' }],
  ['write_file', { path: '/tmp/outside-mcpkit.txt', content: 'x' }],
  ['read_text_file', { path: '@/a.txt' }],
  ['edit_file', { path: '@/README.md', edits: [{ oldText: 'end', newText: 'END' }], dryRun: true }],
  ['edit_file', { path: '@/README.md', edits: [{ oldText: 'indented line', newText: 'changed\n  more' }] }],
  ['edit_file', { path: '@/README.md', edits: [{ oldText: '  # title', newText: '# Title' }] }],
  ['edit_file', { path: '@/README.md', edits: [{ oldText: 'absent', newText: 'x' }] }],
  ['read_text_file', { path: '@/README.md' }],
  ['create_directory', { path: '@/made/deeper' }],
  ['create_directory', { path: '@/made' }],
  ['list_directory', { path: '@' }],
  ['list_directory', { path: '@/missing' }],
  ['list_directory_with_sizes', { path: '@' }],
  ['list_directory_with_sizes', { path: '@', sortBy: 'size' }],
  ['directory_tree', { path: '@' }],
  ['directory_tree', { path: '@', excludePatterns: ['node_modules', '**/*.png'] }],
  ['move_file', { source: '@/new.txt', destination: '@/sub/moved.txt' }],
  ['move_file', { source: '@/sub/moved.txt', destination: '@/a.txt' }],
  ['move_file', { source: '@/missing.txt', destination: '@/gone.txt' }],
  ['search_files', { path: '@', pattern: '**/*.txt' }],
  ['search_files', { path: '@', pattern: '*.md' }],
  ['search_files', { path: '@', pattern: '**/*.txt', excludePatterns: ['node_modules/**', 'sub/deep/**'] }],
  ['search_files', { path: '@', pattern: '*.nothing' }],
  ['get_file_info', { path: '@/sub/deep/c.txt' }],
  ['get_file_info', { path: '@/sub' }],
  ['read_text_file', { path: 1 }, true],
  ['edit_file', { path: '@/a.txt' }, true],
  ['list_directory_with_sizes', { path: '@', sortBy: 'date' }, true],
  ['read_multiple_files', { paths: [] }, true],
  // The official SDK answers an unknown tool with an isError result; the spec asks for a
  // JSON-RPC error (-32602, server/tools "Error Handling"), which ours sends: both fail.
  ['no_such_tool', {}, true],
];

const withRoot = (args: Record<string, unknown>, root: string): Record<string, unknown> =>
  JSON.parse(JSON.stringify(args).replaceAll('@', root)) as Record<string, unknown>;

/** Every answer of the corpus, normalised (the root's path becomes `<root>`). */
async function runCorpus(client: Client, root: string): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const [tool, args, invalid = false] of CORPUS) {
    const answer = await settle(client, tool, withRoot(args, root));
    answers.push({ tool, answer: comparableAnswer(normalise(answer, { [root]: '<root>' }), invalid) });
  }
  return answers;
}

async function listing(client: Client): Promise<unknown> {
  return (await client.listTools()).map((t) => comparableTool(t as unknown as Record<string, unknown>));
}

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function run(entry: string, era: 'legacy' | 'modern') {
  const root = fixture();
  const client = await startServer({ entry, args: [root], era });
  clients.push(client);
  return { tools: await listing(client), answers: await runCorpus(client, root) };
}

describe('the filesystem server against the official one', () => {
  let official: Awaited<ReturnType<typeof run>>;

  it('lists the same tools and gives the same answers on a legacy session', SLOW, async () => {
    official = await run(officialEntry('server-filesystem'), 'legacy');
    const ours = await run(ourEntry('filesystem'), 'legacy');
    expect(ours.tools).toEqual(official.tools);
    expect(ours.answers).toEqual(official.answers);
  });

  it('gives the same answers on the modern era', SLOW, async () => {
    const ours = await run(ourEntry('filesystem'), 'modern');
    expect(ours.tools).toEqual(official.tools);
    expect(ours.answers).toEqual(official.answers);
  });

  it(
    'takes its allowed directories from the client’s roots, and again after roots/list_changed',
    SLOW,
    async () => {
      const seen: unknown[] = [];
      for (const entry of [officialEntry('server-filesystem'), ourEntry('filesystem')]) {
        const [first, second, args] = [fixture(), fixture(), fixture()];
        let roots = [first];
        const client = await startServer({
          entry,
          args: [args],
          era: 'legacy',
          handlers: {
            roots: async () => ({ roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href })) }),
          },
        });
        clients.push(client);
        const allowed = async () =>
          ((await client.callTool('list_allowed_directories', {})).content[0] as { text: string }).text;
        // The official server asks for roots after `initialized`, without waiting: wait for the answer.
        await vi.waitFor(async () => expect(await allowed()).toContain(first), {
          timeout: 10_000,
          interval: 50,
        });
        roots = [second];
        client.notifyRootsChanged();
        await vi.waitFor(async () => expect(await allowed()).toContain(second), {
          timeout: 10_000,
          interval: 50,
        });
        const outside = await client.callTool('read_text_file', { path: join(args, 'a.txt') });
        seen.push(normalise([await allowed(), outside], { [second]: '<second>', [args]: '<args>' }));
      }
      expect(seen[1]).toEqual(seen[0]);
    },
  );
});
