import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { CliError } from './errors.js';

describe('parseCommandLine', () => {
  it.each([
    [['--help'], { name: 'help' }],
    [['--version'], { name: 'version' }],
    [['prompt', '--help'], { name: 'help', topic: 'prompt' }],
    [['inspect'], { name: 'inspect', target: { kind: 'builtin' }, json: false, era: 'auto' }],
    [
      ['inspect', '--era', 'legacy', '--json', '--', 'npx', '-y', 'pkg', '--flag'],
      {
        name: 'inspect',
        target: { kind: 'stdio', command: 'npx', args: ['-y', 'pkg', '--flag'] },
        json: true,
        era: 'legacy',
      },
    ],
    [
      ['inspect', 'http://h/mcp', '--timeout', '500'],
      { target: { kind: 'http', url: 'http://h/mcp' }, timeoutMs: 500 },
    ],
    [['call', 'echo', '--args', '{"text":"hi"}'], { name: 'call', tool: 'echo', args: { text: 'hi' } }],
    [
      ['read', 'test://x', 'https://h/mcp'],
      { name: 'read', uri: 'test://x', target: { kind: 'http', url: 'https://h/mcp' } },
    ],
    [['prompt', 'p', '--args', '{"a":"1"}'], { name: 'prompt', prompt: 'p', args: { a: '1' } }],
    [
      ['call', 'add', 'http://h/mcp?x=1', 'a:=2', 'b=3', 'c:={"d":[1]}', 'e=x=y'],
      { tool: 'add', target: { url: 'http://h/mcp?x=1' }, args: { a: 2, b: '3', c: { d: [1] }, e: 'x=y' } },
    ],
    [['call', 'echo', '--args', '{"text":"a","n":1}', 'text=b'], { args: { text: 'b', n: 1 } }],
    [['prompt', 'p', 'a=1', 'b=two'], { args: { a: '1', b: 'two' } }],
    [
      ['inspect', 'http://h/mcp', '--header', 'Authorization: Bearer x', '--header', 'X-K=v'],
      { headers: { Authorization: 'Bearer x', 'X-K': 'v' } },
    ],
    [['inspect', '--connect-timeout', '2500'], { connectTimeoutMs: 2500 }],
    [['serve', 'everything'], { name: 'serve', server: 'everything' }],
    [['serve', 'everything', '--port', '0', '--host', '::1'], { name: 'serve', port: 0, host: '::1' }],
  ])('parses %j', (argv, expected) => {
    expect(parseCommandLine(argv)).toMatchObject(expected);
  });

  it.each([
    [[], /missing command/],
    [['nope'], /unknown command `nope`/],
    [['--nope'], /unknown option `--nope`/],
    [['call', 'echo', '--args', '[1]'], /--args must be a JSON object/],
    [['call', 'echo', '--args', '{'], /--args is not valid JSON: /],
    [['prompt', 'p', '--args', '{"a":1}'], /prompt argument `a` must be a string/],
    [['inspect', 'http://h/mcp', '--', 'node'], /either a URL or a command/],
    [['inspect', '--timeout=-5'], /--timeout must be a positive integer/],
    [['inspect', '--timeout', '-5'], /^inspect: Option '--timeout' argument is ambiguous; run/],
    [['serve', 'other'], /unknown server `other`/],
    [['serve', 'everything', '--host', 'h'], /--host needs --port/],
    [['serve', 'everything', '--port', '70000'], /--port must be 0 to 65535/],
    [['read', '--json'], /`read` takes 1 to 2 arguments/],
    [['call', 'echo', 'n:=oops'], /`n:=` needs a JSON value/],
    [['prompt', 'p', 'n:=1'], /prompt argument `n` must be a string/],
    [['inspect', 'http://h/mcp', '--header', 'no colon'], /--header must look like 'Name: value'/],
    [['inspect', '--header', 'A: b'], /--header is for HTTP servers/],
    [['inspect', '--connect-timeout', '0'], /--connect-timeout must be a positive integer/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(CliError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  it.each([
    [['call', 'echo', 'http://alice:s3cret@127.0.0.1:1/mcp']],
    [['inspect', 'https://tok3n@example.test/mcp']],
    [['proxy', 'http://alice:s3cret@127.0.0.1:1/mcp']],
  ])('refuses a URL carrying credentials without echoing them: %j', (argv) => {
    let error: unknown;
    try {
      parseCommandLine(argv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(/must not carry credentials/);
    expect((error as Error).message).not.toMatch(/s3cret|tok3n|alice/);
  });
});
