import { describe, expect, it } from 'vitest';
import { encodeHeaderValue, headerValueOf, isHeaderToken } from './header-values.js';
import { ToolHeaders, checkToolHeaders } from './tool-headers.js';

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

describe('ToolHeaders', () => {
  const tools = [
    {
      name: 'execute_sql',
      inputSchema: schema({
        region: prop('string', 'Region'),
        priority: prop('integer', 'Priority'),
        verbose: prop('boolean', 'Verbose'),
        nested: { type: 'object', properties: { tenant: prop('string', 'Tenant') } },
      }),
    },
    { name: 'broken', inputSchema: schema({ v: prop('number', 'Score') }) },
    { name: 'plain', inputSchema: schema({}) },
  ];

  it('drops invalid tools with a warning naming the tool and keeps the others', () => {
    const warnings: string[] = [];
    const registry = new ToolHeaders();
    const screened = registry.screen({ tools, nextCursor: 'c' }, (m) => warnings.push(m));
    expect(screened).toEqual({ tools: [tools[0], tools[2]], nextCursor: 'c' });
    expect(warnings).toEqual([expect.stringContaining('"broken"')]);
  });

  it('returns the same result when nothing is dropped', () => {
    const result = { tools: [tools[0]] };
    expect(new ToolHeaders().screen(result, () => undefined)).toBe(result);
  });

  it('mirrors present values, omits null and absent ones', () => {
    const registry = new ToolHeaders();
    registry.screen({ tools }, () => undefined);
    const args = { region: 'Hello, 世界', priority: 42, verbose: null, nested: { tenant: 'acme' } };
    expect(registry.headersFor('execute_sql', args)).toEqual({
      'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Tenant': 'acme',
    });
    expect(registry.headersFor('unknown', args)).toEqual({});
  });
});
