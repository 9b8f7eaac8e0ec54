import { describe, expect, it } from 'vitest';
import { authChallengeOf, parseChallenges } from './challenge.js';

const challengeOf = (value: string) => authChallengeOf(new Headers({ 'www-authenticate': value }));

describe('WWW-Authenticate parsing', () => {
  it('reads resource_metadata, scope and error from a Bearer challenge', () => {
    const c = challengeOf(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write", error="insufficient_scope"',
    );
    expect(c).toEqual({
      scheme: 'bearer',
      resourceMetadata: new URL('https://mcp.example.com/.well-known/oauth-protected-resource'),
      scope: ['files:read', 'files:write'],
      error: 'insufficient_scope',
    });
  });

  it('finds the Bearer challenge after a non-Bearer one, with parameters on both', () => {
    const all = parseChallenges('Basic realm="x, y", Bearer error=invalid_token, scope="a"');
    expect(all).toEqual([
      { scheme: 'basic', params: { realm: 'x, y' } },
      { scheme: 'bearer', params: { error: 'invalid_token', scope: 'a' } },
    ]);
    expect(challengeOf('Basic realm="x", Bearer scope="a"')?.scope).toEqual(['a']);
  });

  it('unescapes quoted strings and keeps token68 challenges apart', () => {
    expect(parseChallenges('Negotiate abc123==, Bearer realm="a \\"q\\" b"')).toEqual([
      { scheme: 'negotiate', params: {}, token68: 'abc123==' },
      { scheme: 'bearer', params: { realm: 'a "q" b' } },
    ]);
  });

  it('prefers a DPoP nonce challenge, and reads schemes case-insensitively', () => {
    const c = challengeOf('BEARER realm="r", DPoP error="use_dpop_nonce", algs="ES256"');
    expect(c?.scheme).toBe('dpop');
    expect(c?.error).toBe('use_dpop_nonce');
  });

  it('never throws on malformed headers and keeps what it could read', () => {
    for (const bad of [
      '',
      '=',
      '"',
      'Bearer ="x"',
      'Bearer scope="unterminated',
      ',,,',
      'Bearer\u0000x',
      'x'.repeat(20_000),
    ]) {
      expect(() => parseChallenges(bad)).not.toThrow();
    }
    expect(parseChallenges('Bearer scope="a", @@@')).toEqual([{ scheme: 'bearer', params: { scope: 'a' } }]);
    expect(challengeOf('Bearer resource_metadata="not a url"')).toEqual({ scheme: 'bearer' });
    expect(challengeOf('Basic realm="only"')).toBeUndefined();
  });
});
