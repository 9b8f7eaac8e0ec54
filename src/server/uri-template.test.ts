import fc from 'fast-check';
import { parseTemplate } from 'url-template';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileUriTemplate, type TemplateValue } from './uri-template.js';

// Matching runs on re2js, loaded when the first template is compiled.
beforeAll(() => compileUriTemplate('{x}').ready);

/** The variables of RFC 6570 §3.2 (which include those of §1.2). */
const RFC: Record<string, TemplateValue> = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: null,
};

/** RFC 6570 §1.2 (levels 1–4) and §3.2.1–§3.2.9: template → expansion. */
const EXAMPLES: [string, string][] = [
  // §1.2 and §3.2.1
  ['map?{x,y}', 'map?1024,768'],
  ['X{.x,y}', 'X.1024.768'],
  ['{count}', 'one,two,three'],
  ['{count*}', 'one,two,three'],
  ['{/count}', '/one,two,three'],
  ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'],
  ['{;count*}', ';count=one;count=two;count=three'],
  ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{&count*}', '&count=one&count=two&count=three'],
  // §3.2.2 simple
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  // §3.2.3 reserved
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['O{+undef}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  // §3.2.4 fragment
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['X{#var}', 'X#value'],
  ['X{#hello}', 'X#Hello%20World!'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{#keys}', '#semi,;,dot,.,comma,,'],
  ['{#keys*}', '#semi=;,dot=.,comma=,'],
  // §3.2.5 label
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['X{.empty_keys}', 'X'],
  ['X{.empty_keys*}', 'X'],
  // §3.2.6 path segments
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  // §3.2.7 path-style parameters
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  // §3.2.8 form-style query
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  // §3.2.9 form-style query continuation
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

/** What matching each example's expansion gives back, where it is unambiguous. */
const MATCHED: [string, string, Record<string, string>][] = [
  ['{var}', 'value', { var: 'value' }],
  ['{hello}', 'Hello%20World%21', { hello: 'Hello World!' }],
  ['{half}', '50%25', { half: '50%' }],
  ['{+base}index', 'http://example.com/home/index', { base: 'http://example.com/home/' }],
  ['{+path}/here', '/foo/bar/here', { path: '/foo/bar' }],
  ['here?ref={+path}', 'here?ref=/foo/bar', { path: '/foo/bar' }],
  ['{#hello}', '#Hello%20World!', { hello: 'Hello World!' }],
  ['foo{#empty}', 'foo#', { empty: '' }],
  ['foo{#undef}', 'foo', {}],
  ['www{.dom*}', 'www.example.com', { dom: 'example,com' }],
  ['X{.var}', 'X.value', { var: 'value' }],
  ['X{.undef}', 'X', {}],
  ['{/who,dub}', '/fred/me%2Ftoo', { who: 'fred', dub: 'me/too' }],
  ['{/var,x}/here', '/value/1024/here', { var: 'value', x: '1024' }],
  ['{/list*}', '/red/green/blue', { list: 'red,green,blue' }],
  ['{;v,empty,who}', ';v=6;empty;who=fred', { v: '6', empty: '', who: 'fred' }],
  ['{;v,bar,who}', ';v=6;who=fred', { v: '6', who: 'fred' }],
  ['{;hello:5}', ';hello=Hello', { hello: 'Hello' }],
  ['{;list*}', ';list=red;list=green;list=blue', { list: 'red,green,blue' }],
  ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
  ['{?x,y,undef}', '?x=1024&y=768', { x: '1024', y: '768' }],
  ['{?half}', '?half=50%25', { half: '50%' }],
  ['{?list*}', '?list=red&list=green&list=blue', { list: 'red,green,blue' }],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
  ['{&x,y,empty}', '&x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
];

describe('RFC 6570 expansion', () => {
  it.each(EXAMPLES)('expands %s as the RFC says', (template, expected) => {
    expect(compileUriTemplate(template).expand(RFC)).toBe(expected);
  });

  it.each(EXAMPLES)('agrees with url-template on %s', (template) => {
    expect(compileUriTemplate(template).expand(RFC)).toBe(parseTemplate(template).expand(RFC as never));
  });

  it('percent-encodes literals outside the allowed set as UTF-8 (§3.1)', () => {
    expect(compileUriTemplate('notes://café/{id}').expand({ id: '1' })).toBe('notes://caf%C3%A9/1');
    expect(compileUriTemplate('x://a b/{id}').expand({ id: 'ü' })).toBe('x://a%20b/%C3%BC');
  });

  it("encodes !'()* in {var} and keeps existing %XX triplets in {+var}", () => {
    expect(compileUriTemplate('{a}|{+b}').expand({ a: "!'()*", b: 'a%20b%zz' })).toBe(
      '%21%27%28%29%2A%7Ca%20b%25zz',
    );
  });

  it('counts a prefix in characters, not UTF-16 units', () => {
    expect(compileUriTemplate('{x:2}').expand({ x: '😀é!' })).toBe('%F0%9F%98%80%C3%A9');
  });

  it('agrees with url-template on random values for every operator', () => {
    const templates = [
      '{a}',
      '{+a}',
      '{#a}',
      'x{.a}',
      '{/a,b}',
      '{;a,b}',
      '{?a,b}',
      '{&a}',
      '{a,b}',
      'p/{a}/q{?b}',
    ];
    const value = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/[\uD800-\uDFFF]/.test(s));
    fc.assert(
      fc.property(fc.constantFrom(...templates), value, value, (template, a, b) => {
        const ours = compileUriTemplate(template).expand({ a, b });
        expect(ours).toBe(parseTemplate(template).expand({ a, b }));
      }),
      { numRuns: 300 },
    );
  });
});

describe('RFC 6570 matching', () => {
  it.each(MATCHED)('matches %s against %s', (template, uri, expected) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(expected);
  });

  it('matches the percent-encoded and the raw form of a non-ASCII template literal', () => {
    const t = compileUriTemplate('notes://café/{id}');
    expect(t.match('notes://caf%C3%A9/1')).toEqual({ id: '1' });
    expect(t.match('notes://caf%c3%a9/1')).toEqual({ id: '1' });
    expect(t.match('notes://café/1')).toEqual({ id: '1' });
    expect(t.match('notes://cafe/1')).toBeUndefined();
  });

  it('decodes raw and percent-encoded values alike', () => {
    const t = compileUriTemplate('x://{a}/{+b}{?q}');
    expect(t.match('x://caf%C3%A9/d%20e/f?q=%E2%9C%93')).toEqual({ a: 'café', b: 'd e/f', q: '✓' });
    expect(t.match('x://café/d e/f?q=✓')).toEqual({ a: 'café', b: 'd e/f', q: '✓' });
  });

  it.each([
    ['test://template/{id}/data', 'test://template/a/b/data'],
    ['x://{id}', 'x://%E0%A4%A'],
    ['x://{id}', 'y://1'],
    ['x://i{?a,b}', 'x://i?c=1'],
    ['x://i{?a}', 'x://i?a=1&a=2'],
    ['x://{id:3}', 'x://abcd'],
    ['x://i{;a}', 'x://i;b=1'],
  ])('refuses %s for %s', (template, uri) => {
    expect(compileUriTemplate(template).match(uri)).toBeUndefined();
  });

  it('accepts named parameters in any order, each optional', () => {
    const t = compileUriTemplate('x://s{?a,b,c}');
    expect(t.match('x://s?c=3&a=1')).toEqual({ a: '1', c: '3' });
    expect(t.match('x://s')).toEqual({});
  });

  it('gives back what it expanded, for every operator, encoded and raw', () => {
    const templates = [
      'x://{a}/{b}',
      'x://{+a}!{b}',
      'x://h/{a}{#b}',
      'x://h{/a,b}',
      'x://h{;a,b}',
      'x://h{?a,b}',
      'x://h?z=1{&a,b}',
    ];
    const value = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 10 })
      .filter((s) => !/[\uD800-\uDFFF/?#,;&=!%.]/.test(s));
    fc.assert(
      fc.property(fc.constantFrom(...templates), value, value, (template, a, b) => {
        const t = compileUriTemplate(template);
        const uri = t.expand({ a, b });
        expect(t.match(uri)).toEqual({ a, b });
        expect(t.match(decodeURI(uri))).toEqual({ a, b });
      }),
      { numRuns: 300 },
    );
  });

  it('matches in linear time, whatever the request URI', () => {
    const t = compileUriTemplate('x://{+a}{+b}{+c}/end');
    expect(t.match(`x://${'a'.repeat(100_000)}`)).toBeUndefined();
  });
});

describe('RFC 6570 syntax', () => {
  it.each([
    'x://{a',
    'x://a}',
    'x://{}',
    'x://{=a}',
    'x://{!a}',
    'x://{a:0}',
    'x://{a:10000}',
    'x://{a b}',
    'x://{a{b}}',
    'x://{.}',
  ])('refuses %s', (template) => {
    expect(() => compileUriTemplate(template)).toThrow(/Invalid URI template/);
  });

  it('lists each variable once, in order', () => {
    expect(compileUriTemplate('{/a,b}{?a,c*}{#d:3}').variables).toEqual(['a', 'b', 'c', 'd']);
  });
});
