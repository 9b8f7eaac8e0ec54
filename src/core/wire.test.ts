import { describe, expect, it } from 'vitest';
import {
  allowsBatch,
  checkToolHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  headerMatches,
  headerValueOf,
  isHeaderToken,
  mcpNameOf,
} from './wire.js';

describe('encodeHeaderValue', () => {
  // The table of streamable-http "Value Encoding", plus edge cases.
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['us west 1', 'us west 1'],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['a\tb', '=?base64?YQli?='],
    ['', ''],
    ['file:///path/to/file%20name.txt', 'file:///path/to/file%20name.txt'],
  ])('encodes %j as %j', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });
});

describe('headerValueOf', () => {
  it.each([
    [42, '42'],
    [-7, '-7'],
    [true, 'true'],
    [false, 'false'],
    ['x', 'x'],
    [null, undefined],
    [undefined, undefined],
    [{ a: 1 }, undefined],
    [Number.NaN, undefined],
  ])('turns %j into %j', (value, text) => {
    expect(headerValueOf(value)).toBe(text);
  });
});

describe('isHeaderToken', () => {
  it.each([
    ['Region', true],
    ['X-Trace_id.v2', true],
    ['', false],
    ['My Region', false],
    ['Region:Primary', false],
    ['Région', false],
    ['Region\t1', false],
    ['a\r\nb', false],
  ])('%j is a token: %s', (name, ok) => {
    expect(isHeaderToken(name)).toBe(ok);
  });
});

const prop = (type: unknown, header: unknown) => ({ type, 'x-mcp-header': header });
const schema = (properties: object) => ({ type: 'object', properties });

describe('checkToolHeaders', () => {
  it.each([
    ['an empty name', schema({ v: prop('string', '') }), 'must not be empty'],
    ['an object parameter', schema({ v: prop('object', 'Data') }), 'not of type'],
    ['an array parameter', schema({ v: prop('array', 'Items') }), 'not of type'],
    ['a null parameter', schema({ v: prop('null', 'Nil') }), 'not of type'],
    ['a number parameter', schema({ v: prop('number', 'Score') }), 'not of type'],
    ['a parameter without a type', schema({ v: { 'x-mcp-header': 'V' } }), 'not of type'],
    ['a duplicate name', schema({ a: prop('string', 'Region'), b: prop('string', 'Region') }), 'twice'],
    [
      'a duplicate ignoring case',
      schema({ a: prop('string', 'MyField'), b: prop('string', 'myfield') }),
      'twice',
    ],
    ['a space', schema({ v: prop('string', 'My Region') }), 'token'],
    ['a colon', schema({ v: prop('string', 'Region:Primary') }), 'token'],
    ['a non-ASCII name', schema({ v: prop('string', 'Région') }), 'token'],
    ['a control character', schema({ v: prop('string', 'Region\t1') }), 'token'],
    ['a non-string name', schema({ v: prop('string', 7) }), 'must be a string'],
    ['an annotation under items', schema({ v: { type: 'array', items: prop('string', 'I') } }), 'reachable'],
    ['an annotation under anyOf', { anyOf: [schema({ v: prop('string', 'A') })] }, 'reachable'],
    ['an annotation in $defs', { ...schema({}), $defs: { d: prop('string', 'D') } }, 'reachable'],
  ])('rejects %s', (_what, inputSchema, reason) => {
    const check = checkToolHeaders(inputSchema);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toContain(reason);
  });

  it('accepts primitive parameters reachable through properties, nested ones included', () => {
    const check = checkToolHeaders(
      schema({
        region: prop('string', 'Region'),
        priority: prop('integer', 'Priority'),
        flag: prop(['boolean', 'null'], 'Flag'),
        nested: { type: 'object', properties: { tenant: prop('string', 'Tenant') } },
        plain: { type: 'number' },
        'x-mcp-header': { type: 'string' },
      }),
    );
    expect(check).toEqual({
      ok: true,
      annotations: [
        { path: ['region'], name: 'Region' },
        { path: ['priority'], name: 'Priority' },
        { path: ['flag'], name: 'Flag' },
        { path: ['nested', 'tenant'], name: 'Tenant' },
      ],
    });
  });

  it('ignores annotation-like keys inside instance data such as default', () => {
    expect(checkToolHeaders(schema({ v: { type: 'object', default: { 'x-mcp-header': 'X' } } })).ok).toBe(
      true,
    );
  });
});

describe('decodeHeaderValue', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['  padded  ', 'padded'],
    ['=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=', '=?base64?literal?='],
    ['=?base64?not base64?=', undefined],
    ['=?base64?/w==?=', undefined],
    ['=?base64?SGVsbG8?=', undefined],
    ['=?base64?SGVs!!!bG8=?=', undefined],
    ['SGVsbG8=', 'SGVsbG8='],
    ['caf\u00e9', undefined],
    ['a\u0000b', undefined],
  ])('%j → %j', (raw, expected) => {
    expect(decodeHeaderValue(raw)).toBe(expected);
  });

  // The printable-ASCII rule is about the raw header; decoded values may be any text.
  it.each(['café', '東京', '🚀 launch', ' lead', 'trail ', 'Hello, 世界', 'line1\nline2', '=?base64?x?='])(
    'round-trips %j through encode and decode',
    (value) => {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^[\x20-\x7E]*$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    },
  );
});

describe('headerMatches', () => {
  it.each([
    ['42', 42, true],
    ['42.0', 42, true],
    ['', 0, false],
    ['true', true, true],
    ['TRUE', true, false],
    ['x', 'x', true],
    ['x', 'y', false],
  ])('%j stands for %j: %s', (decoded, value, ok) => {
    expect(headerMatches(decoded, value)).toBe(ok);
  });
});

describe('request fields', () => {
  it('names the Mcp-Name source of each method', () => {
    expect(mcpNameOf('tools/call', { name: 't' })).toBe('t');
    expect(mcpNameOf('prompts/get', { name: 'p' })).toBe('p');
    expect(mcpNameOf('resources/read', { uri: 'file:///a' })).toBe('file:///a');
    expect(mcpNameOf('tools/list', { name: 'x' })).toBeUndefined();
  });

  it('allows batches only on 2025-03-26', () => {
    expect(allowsBatch('2025-03-26')).toBe(true);
    for (const v of ['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28', undefined])
      expect(allowsBatch(v)).toBe(false);
  });
});
