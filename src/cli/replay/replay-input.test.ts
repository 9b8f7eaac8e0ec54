import { distance } from 'fastest-levenshtein';
/**
 * What a tester fed `mcpkit replay`: recordings that are empty, have blank lines before a
 * bad line, or nest too deep; stdin lines that are blank, too long, too deep or not JSON; a
 * request far from any recorded one; messages that are JSON but not JSON-RPC (on stdio and
 * HTTP, answered as mcpkit's servers answer them); and a client that goes away (EPIPE).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli } from '../../../test/support/cli.js';
import { parseRecording } from '../record/format.js';
import { ReplayBook } from './book.js';
import { serveReplayHttp } from './http.js';

let dir: string;
const HEADER = JSON.stringify({ mcpkitRecording: 1, transport: 'stdio', server: 'x', recordedAt: '' });
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const LISTED = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
const RECORDING = [
  HEADER,
  JSON.stringify({ at: 0, from: 'client', message: LIST }),
  JSON.stringify({ at: 1, from: 'server', message: LISTED }),
  JSON.stringify({
    at: 2,
    from: 'client',
    message: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'a', arguments: { text: 'x'.repeat(5000) } },
    },
  }),
  JSON.stringify({ at: 3, from: 'server', message: { jsonrpc: '2.0', id: 2, result: { content: [] } } }),
].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-replay-input-'));
  await writeFile(join(dir, 'ok.jsonl'), RECORDING);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('replay of a bad recording', () => {
  it('names the file and the true line number (blank lines counted), and says when the file is empty', async () => {
    const cases: [string, string, RegExp][] = [
      ['empty.jsonl', '\n\n', /empty\.jsonl: the file is empty: a recording starts with a header line/],
      ['blank.jsonl', `${HEADER}\n\n\n{oops\n`, /blank\.jsonl: line 4 is not JSON/],
      [
        'deep.jsonl',
        `${HEADER}\n\n${'['.repeat(50_000)}${']'.repeat(50_000)}\n`,
        /line 3 is nested deeper than 256 levels/,
      ],
      ['noheader.jsonl', `\n${JSON.stringify(LISTED)}\n`, /line 2 is not a recording header/],
      ['message.jsonl', `${HEADER}\n\n{"from":"nobody"}\n`, /line 3 is not a recorded message/],
    ];
    for (const [name, text] of cases) await writeFile(join(dir, name), text);
    const runs = await Promise.all(cases.map(([name]) => runCli(['replay', join(dir, name)])));
    runs.forEach((run, i) =>
      expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(cases[i]![2])]),
    );
  });
});

/** Runs `mcpkit replay ok.jsonl` on stdio with `input` and resolves with its answers. */
function replayStdio(input: string): Promise<{ code: number | null; stderr: string; answers: unknown[] }> {
  const child = spawn(process.execPath, [CLI, 'replay', join(dir, 'ok.jsonl')], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({
        code,
        stderr,
        answers: stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown),
      }),
    ),
  );
}

describe('replay on stdio', () => {
  it('answers a too-long, too-deep or non-JSON line with an error naming its line, then goes on', async () => {
    const lines = [
      '',
      'not json',
      `{"x":"${'y'.repeat(17 * 1024 * 1024)}"}`,
      '['.repeat(5000) + ']'.repeat(5000),
      '',
      JSON.stringify(LIST),
    ];
    const run = await replayStdio(lines.join('\n') + '\n');
    expect(run.code).toBe(0);
    expect(run.answers).toEqual([
      {
        jsonrpc: '2.0',
        error: expect.objectContaining({
          code: -32700,
          message: expect.stringMatching(/^replay: line 2 is not JSON/),
        }),
      },
      {
        jsonrpc: '2.0',
        error: expect.objectContaining({
          code: -32600,
          message: 'replay: line 3 is over 16777216 bytes; dropped',
        }),
      },
      {
        jsonrpc: '2.0',
        error: expect.objectContaining({
          code: -32700,
          message: 'replay: line 4 is nested deeper than 256 levels',
        }),
      },
      LISTED,
    ]);
  });

  it('answers a message that is not JSON-RPC with -32600 (its id echoed when valid), never a malformed notification', async () => {
    const lines = [
      '[1]',
      '"x"',
      '{}',
      '{"jsonrpc":"2.0","id":2,"method":5}',
      '{"id":3,"method":"tools/list"}',
      '{"jsonrpc":"2.0","method":"notifications/x","params":5}',
      JSON.stringify(LIST),
    ];
    const run = await replayStdio(lines.join('\n') + '\n');
    const invalid = (id?: number) => ({
      jsonrpc: '2.0',
      ...(id === undefined ? {} : { id }),
      error: expect.objectContaining({ code: -32600, message: expect.stringMatching(/^Invalid request: /) }),
    });
    expect(run.answers).toEqual([invalid(), invalid(), invalid(), invalid(2), invalid(3), LISTED]);
  });

  it('keeps the nearest-request error short when the params are huge', async () => {
    const unknown = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'a', arguments: { text: 'z'.repeat(1_000_000) } },
    };
    const odd = { jsonrpc: '2.0', id: 10, method: 'm'.repeat(100_000), params: {} };
    const run = await replayStdio(`${JSON.stringify(unknown)}\n${JSON.stringify(odd)}\n`);
    const [near, method] = run.answers as {
      error: { message: string; data?: { nearest: Record<string, unknown> } };
    }[];
    expect(near?.error.message).toMatch(/nearest recorded: tools\/call .*… \(\d+ characters\)$/);
    expect(JSON.stringify(near).length).toBeLessThan(1500);
    expect(near?.error.data?.nearest).toEqual({
      method: 'tools/call',
      paramsText: expect.stringMatching(/^\{"arguments".*… \(\d+ characters\)$/),
    });
    expect(JSON.stringify(method).length).toBeLessThan(1500);
  });

  it('exits 0 without a stack trace when the client goes away (EPIPE)', async () => {
    const child = spawn(process.execPath, [CLI, 'replay', join(dir, 'ok.jsonl')], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.destroy();
    for (let i = 0; i < 50; i++) child.stdin.write(`${JSON.stringify({ ...LIST, id: i })}\n`);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});

describe('replay on HTTP', () => {
  it('refuses a body that is not JSON-RPC (400), a body that is not JSON (415) and another path (404)', async () => {
    const book = new ReplayBook(parseRecording(RECORDING).messages, distance);
    const served = await serveReplayHttp(book, {});
    try {
      const post = (body: string, type = 'application/json', path = '/mcp') =>
        fetch(new URL(path, served.url), {
          method: 'POST',
          headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
          body,
        });
      for (const body of ['[1]', '"x"', '{}', '{"jsonrpc":"2.0","id":1,"method":5}']) {
        const res = await post(body);
        const answer = (await res.json()) as unknown;
        const one = Array.isArray(answer) ? answer[0] : answer;
        expect([body, res.status, (one as { error: { code: number } }).error.code]).toEqual([
          body,
          400,
          -32600,
        ]);
      }
      expect((await post(JSON.stringify(LIST), 'text/plain')).status).toBe(415);
      expect((await post(JSON.stringify(LIST), 'application/json', '/zzz')).status).toBe(404);
      const listed = await post(JSON.stringify(LIST));
      expect([listed.status, await listed.json()]).toEqual([200, LISTED]);
    } finally {
      await served.close();
    }
  });
});
