import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';

describe('mcpkit serve NAME for the reference servers', () => {
  it.each([
    [['serve', 'filesystem', '/a', '/b'], { server: 'filesystem', serverArgs: ['/a', '/b'] }],
    [['serve', 'memory'], { server: 'memory', serverArgs: [] }],
    [
      ['serve', 'sequential-thinking', '--port', '0'],
      { server: 'sequential-thinking', serverArgs: [], port: 0 },
    ],
    [
      ['serve', '--port', '3000', 'git', '--repository', '.', '--host', '::1'],
      { server: 'git', serverArgs: ['--repository', '.'], port: 3000, host: '::1' },
    ],
    [
      ['serve', 'time', '--local-timezone=Europe/Paris', '--port=8080'],
      { server: 'time', serverArgs: ['--local-timezone=Europe/Paris'], port: 8080 },
    ],
    [
      ['serve', 'fetch', '-xy', '--ignore-robots-txt'],
      { server: 'fetch', serverArgs: ['-xy', '--ignore-robots-txt'] },
    ],
    [
      ['serve', 'filesystem', '/a', '--port', '1', '--', '--port', '--host'],
      { server: 'filesystem', serverArgs: ['/a', '--port', '--host'], port: 1 },
    ],
  ])('parses %j', (argv, expected) => {
    expect(parseCommandLine(argv)).toEqual({ name: 'serve', ...expected });
  });

  it('keeps `serve everything` and its flags', () => {
    expect(parseCommandLine(['serve', 'everything', '--port', '0', '--auth-issuer', 'https://as'])).toEqual({
      name: 'serve',
      server: 'everything',
      port: 0,
      authIssuer: 'https://as',
    });
  });

  it('answers --help with the serve help, wherever it is before `--`', () => {
    expect(parseCommandLine(['serve', 'memory', '--help'])).toEqual({ name: 'help', topic: 'serve' });
    expect(parseCommandLine(['serve', 'memory', '--', '--help'])).toMatchObject({ serverArgs: ['--help'] });
  });

  it.each([
    [['serve', 'memory', '--port', 'x'], /--port must be 0 to 65535/],
    [['serve', 'memory', '--host', 'h'], /--host needs --port/],
    [['serve', 'memory', '--port'], /--port needs a value/],
    [
      ['serve', 'nothing'],
      /serve` offers: everything, filesystem, memory, sequential-thinking, time, git, fetch/,
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});
