/**
 * The Workers pattern engine (native-engine.ts): the platform's RegExp, with the shapes that
 * backtrack exponentially refused before they run. Each refused case is a classic ReDoS shape;
 * each accepted one is a pattern authors write (slugs, dotted versions, semver, e-mail-like).
 */
import { describe, expect, it } from 'vitest';
import { backtrackingRisk, compilePattern } from './native-engine.js';

describe('the Workers pattern engine', () => {
  it.each([
    ['^(a+)+$', '(a+)+'],
    ['^(a*)*b', '(a*)*'],
    ['^(a|aa)*$', '(a|aa)*'],
    ['^(\\w+\\s?)*$', '(\\w+\\s?)*'],
    ['^([a-z]+)*$', '([a-z]+)*'],
    ['(x+x+)+y', '(x+x+)+'],
    ['^(?:a|b)+$', '(?:a|b)+'],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', '(([a-z])+.)+'],
    ['^(-[a-z-]+)*$', '(-[a-z-]+)*'],
    ['^(a{1,5}){2,}$', '(a{1,5}){2,}'],
  ])('refuses %s (the repeated group %s)', (pattern, group) => {
    expect(backtrackingRisk(pattern)).toBe(group);
    expect(() => compilePattern(pattern, 'u')).toThrow(/backtrack exponentially/);
  });

  it.each([
    '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    '^\\d+(\\.\\d+)*$',
    '^(\\.\\w+)+$',
    '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$',
    '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    '^(?:https?|ftp)://',
    '^[A-Z]{2,3}-\\d{4}$',
    '^(ab){3}$',
    '^(?:[a-z]+)?$',
    '^a+b+c+$',
    '[\\]()+*]+',
  ])('accepts %s and matches as the platform does', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
    const compiled = compilePattern(pattern, 'u');
    for (const input of ['my-slug', '1.2.3', 'a@b.co', 'https://x', 'AB-1234', 'ababab', 'abc', '', ']]+'])
      expect(compiled.test(input)).toBe(new RegExp(pattern, 'u').test(input));
  });

  it('matches a whole input and gives its groups, undefined for those that took no part', () => {
    const compiled = compilePattern('(a)(b)?c', '');
    expect(compiled.whole('ac')).toEqual(['a', undefined]);
    expect(compiled.whole('xac')).toBeUndefined();
  });
});
