/**
 * `mcpkit serve NAME` for the reference servers, with the built CLI: stdio by default, both
 * eras over Streamable HTTP with `--port`, and a bad server argument as a usage error (of the
 * CLI and of each server's own main.js).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp } from '../../src/client/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { ourEntry } from '../support/reference-servers.js';

const CLI = join(ourEntry('x'), '..', '..', '..', 'src', 'cli', 'main.js');
const SLOW = { timeout: 60_000 };
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-serve-'));
writeFileSync(join(dir, 'a.txt'), 'hello');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

describe('mcpkit serve NAME', () => {
  it('serves memory on stdio with the official environment variable', SLOW, async () => {
    const client = createClient({ name: 't', version: '0', era: 'auto' });
    await client.connect(
      spawnStdio({
        command: process.execPath,
        args: [CLI, 'serve', 'memory'],
        env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'm.jsonl') } as Record<string, string>,
      }),
    );
    await client.callTool('create_entities', {
      entities: [{ name: 'a', entityType: 't', observations: [] }],
    });
    expect(client.serverInfo?.name).toBe('memory-server');
    expect(JSON.parse(text(await client.callTool('read_graph', {})))).toMatchObject({
      entities: [{ name: 'a' }],
    });
    await client.close();
  });

  it(
    'serves filesystem over Streamable HTTP on both eras with --port, wherever it is written',
    SLOW,
    async () => {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', 'filesystem', dir], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let seen = '';
          child.stderr.on('data', (chunk: Buffer) => {
            seen += chunk.toString();
            const found = /serving filesystem at (\S+)/.exec(seen)?.[1];
            if (found) resolve(found);
          });
          child.once('exit', (code) => reject(new Error(`exited ${code}: ${seen}`)));
        });
        for (const era of ['modern', 'legacy'] as const) {
          const client = createClient({ name: 't', version: '0', era });
          await client.connect(streamableHttp(url));
          expect(client.era).toBe(era);
          expect(text(await client.callTool('read_text_file', { path: join(dir, 'a.txt') }))).toBe('hello');
          await client.close();
        }
      } finally {
        child.kill('SIGTERM');
      }
    },
  );

  it('reports a bad server argument as a usage error with the server’s usage line', () => {
    const run = spawnSync(process.execPath, [CLI, 'serve', 'filesystem', '--bogus'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: mcpkit serve filesystem [--] DIR [DIR...]');
  });
});

describe("each reference server's own main.js (servers/shared/stdio-main.ts)", () => {
  it.each(['filesystem', 'memory', 'sequential-thinking', 'time', 'git', 'fetch'])(
    '%s refuses a bad argument with exit code 2 and its usage line on stderr, nothing on stdout',
    (name) => {
      const run = spawnSync(process.execPath, [ourEntry(name), '--bogus'], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^\\[${name}\\] .*--bogus[^]*usage: `));
      expect(run.stdout).toBe('');
    },
  );
});
