import { describe, expect, it } from 'vitest';
import { qualifyUri, unqualifyUri, uriPrefix } from './namespace.js';

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

describe('a prefixed URI', () => {
  it.each([
    ['my_fs', 'my-fs+file:///notes.txt'],
    ['fs_a', 'fs-a+file:///notes.txt'],
    ['Local Files', 'local-files+file:///notes.txt'],
    ['1password', 'x1password+file:///notes.txt'],
    ['a+b', 'a-b+file:///notes.txt'],
    ['weather', 'weather+file:///notes.txt'],
    ['café', 'caf-+file:///notes.txt'],
  ])('under %j is %s, a valid scheme that leads back to the URI', (prefix, qualified) => {
    const uri = qualifyUri(prefix, 'file:///notes.txt');
    expect(uri).toBe(qualified);
    expect(uri).toMatch(SCHEME);
    expect(unqualifyUri(prefix, uri)).toBe('file:///notes.txt');
    expect(
      unqualifyUri(
        prefix,
        uri.toUpperCase().slice(0, uriPrefix(prefix).length) + uri.slice(uriPrefix(prefix).length),
      ),
    ).toBe('file:///notes.txt');
  });

  it('is not taken for another prefix', () => {
    expect(unqualifyUri('fs_b', qualifyUri('fs_a', 'file:///x'))).toBeUndefined();
  });
});
