import { describe, expect, it } from 'vitest';
import { checkToolHeaders } from '../../core/wire.js';
import { createServer } from '../server.js';
import { createHttpHandler } from './index.js';
import { buildServer, errorOf, modernPost } from '../../../test/support/http-harness.js';

const args = { region: 'us-west1', limit: 42, options: { dry: true } };
const good = { 'mcp-param-region': 'us-west1', 'mcp-param-limit': '42', 'mcp-param-dry': 'true' };

describe('Mcp-Param-* headers', () => {
  it('accepts headers matching the arguments, numbers compared numerically, Base64 decoded', async () => {
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0 });
    const headers = {
      ...good,
      'mcp-param-limit': '42.0',
      'mcp-param-region': `=?base64?${btoa('us-west1')}?=`,
    };
    const response = await handler(modernPost('tools/call', { name: 'sql', arguments: args }, headers));
    expect(response.status).toBe(200);
  });

  it.each([
    ['a missing header', { 'mcp-param-region': null }],
    ['a mismatching header', { 'mcp-param-region': 'eu-west1' }],
    ['a mismatching number', { 'mcp-param-limit': '7' }],
    ['a mismatching boolean', { 'mcp-param-dry': 'TRUE' }],
    ['a malformed Base64 value', { 'mcp-param-region': '=?base64?%%?=' }],
  ])('refuses %s with 400 and -32020', async (_case, extra) => {
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0 });
    const headers: Record<string, string | null> = { ...good, ...extra };
    const response = await handler(modernPost('tools/call', { name: 'sql', arguments: args }, headers));
    expect(response.status).toBe(400);
    expect((await errorOf(response, '2026-07-28')).error.code).toBe(-32020);
  });

  it('expects no header for an absent or null argument', async () => {
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0 });
    const response = await handler(modernPost('tools/call', { name: 'sql', arguments: { region: null } }));
    expect(response.status).toBe(200);
  });

  it.each([
    ['a mismatching header', { 'mcp-param-region': 'us' }],
    ['a missing header', {}],
  ])('checks a tool registered after the first call, unannounced: %s', async (_case, extra) => {
    const server = buildServer();
    const handler = createHttpHandler(server, { keepAliveMs: 0 });
    expect((await handler(modernPost('tools/call', { name: 'sql', arguments: args }, good))).status).toBe(
      200,
    );
    const inputSchema = {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
    };
    server.tool('late', { inputSchema }, ({ region }) => `late ${String(region)}`);
    const response = await handler(
      modernPost('tools/call', { name: 'late', arguments: { region: 'eu' } }, extra),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response, '2026-07-28')).error.code).toBe(-32020);
    const matching = { 'mcp-param-region': 'eu' };
    expect(
      (await handler(modernPost('tools/call', { name: 'late', arguments: { region: 'eu' } }, matching)))
        .status,
    ).toBe(200);
  });
});

describe('server.tool() and x-mcp-header annotations', () => {
  const prop = (type: string, header: unknown) => ({ type, 'x-mcp-header': header });
  it.each([
    ['a header on an object parameter', { v: prop('object', 'Data') }],
    ['a header on a number parameter', { v: prop('number', 'Score') }],
    [
      'the same header name twice, ignoring case',
      { a: prop('string', 'Region'), b: prop('string', 'region') },
    ],
    ['a header name that is not a token', { v: prop('string', 'My Region') }],
    ['a header name of more than 128 characters', { v: prop('string', 'N'.repeat(129)) }],
    [
      'more than 64 annotated parameters',
      Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, prop('string', `H${i}`)])),
    ],
  ])('refuses with INVALID_DEFINITION a tool the client would drop: %s', (_case, properties) => {
    const inputSchema = { type: 'object', properties };
    // The client screens listed tools with the same check and drops this one.
    expect(checkToolHeaders(inputSchema).ok).toBe(false);
    const server = createServer({ name: 's', version: '1' });
    expect(() => server.tool('t', { inputSchema }, () => 'ok')).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
  });
});
