import { describe, expect, it } from 'vitest';
import { compileUriTemplate } from './uri-template.js';

describe('compileUriTemplate', () => {
  const cases: [string, string, Record<string, string> | undefined][] = [
    ['test://template/{id}/data', 'test://template/123/data', { id: '123' }],
    ['test://template/{id}/data', 'test://template/a%20b/data', { id: 'a b' }],
    ['test://template/{id}/data', 'test://template/a/b/data', undefined],
    ['file:///{+path}', 'file:///home/ada/notes.txt', { path: 'home/ada/notes.txt' }],
    ['users/{user}/repos/{repo}', 'users/ada/repos/engine', { user: 'ada', repo: 'engine' }],
    ['x://{id}', 'x://%E0%A4%A', undefined],
    ['x://{id}', 'y://1', undefined],
  ];
  it.each(cases)('matches %s against %s', (template, uri, expected) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(expected);
  });

  it('expands with percent-encoding, keeping reserved characters for {+var}', () => {
    expect(compileUriTemplate('x://{a}/{+b}').expand({ a: 'a/b c', b: 'd/e f' })).toBe(
      'x://a%2Fb%20c/d/e%20f',
    );
  });

  it.each(['x://{#frag}', 'x://{a,b}', 'x://{a', 'x://{}'])(
    'refuses the unsupported template %s',
    (template) => {
      expect(() => compileUriTemplate(template)).toThrow(/Invalid URI template/);
    },
  );
});
