import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { connect } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { startPetstore, type Petstore } from '../../test/support/petstore.js';
import { fromOpenApi, type OpenApiOptions } from './index.js';

const EDGE = 'test/support/fixtures/openapi/edge.json';
const TOKEN = 'tok-3b9d2e77f1';
const API_KEY = 'key-a81c55d0';

let store: Petstore;
beforeEach(async () => {
  store = await startPetstore();
});
afterEach(() => store.close());

async function serve(era: 'modern' | 'legacy', options: Partial<OpenApiOptions> = {}) {
  const served = await fromOpenApi(EDGE, {
    baseUrl: store.baseUrl,
    auth: { type: 'bearer', token: TOKEN },
    headers: { 'X-Api-Key': API_KEY, 'X-Client': 'tests' },
    timeoutMs: 300,
    maxResponseBytes: 16 * 1024,
    ...options,
  });
  const [a, b] = createLinkedPair();
  await connect(served.server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return { served, client };
}

describe('an OpenAPI document with bad operations', () => {
  it('reports each bad operation once, with the reason, and serves the rest', async () => {
    const { served } = await serve('modern');
    const reasons = Object.fromEntries(served.issues.map((i) => [i.operation, i.message]));
    expect(reasons).toEqual({
      'GET /edge/missing': expect.stringMatching(/Missing \$ref pointer "#\/components\/schemas\/Nowhere"/),
      'GET /edge/external': expect.stringMatching(/external \$ref .* not fetched/),
      'GET /edge/unnamed': expect.stringMatching(/no usable tool name/),
      'GET /edge/long': expect.stringMatching(/no usable tool name/),
    });
    expect(served.tools).toEqual([
      'htmlAnswer',
      'brokenJson',
      'crash',
      'echoCredentials',
      'wrongShape',
      'hang',
      'big',
      'shapeOf',
      'tree',
    ]);
  });

  it('keeps a recursive schema (a tree of trees) as $defs and $ref, and validates through it', async () => {
    const { client } = await serve('modern');
    const tree = (await client.listTools()).find((t) => t.name === 'tree');
    expect(tree?.outputSchema).toMatchObject({
      type: 'object',
      properties: { children: { items: { $ref: '#/$defs/Node' } } },
      $defs: { Node: { properties: { children: { items: { $ref: '#/$defs/Node' } } } } },
    });
    const result = await client.callTool('tree');
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toEqual({ name: 'root', children: [{ name: 'leaf', children: [] }] });
  });

  it('says what it read and what it expected for a plain-text document', async () => {
    const read = fromOpenApi('test/support/fixtures/openapi/plain.txt', { baseUrl: 'http://x' });
    await expect(read).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(read).rejects.toThrow(
      /plain\.txt: it parses \(as JSON or YAML\) to a plain value, not an object; expected an OpenAPI 3\.0 or 3\.1 document/,
    );
    await expect(read).rejects.not.toThrow(/JSON Schema/);
  });

  it('refuses Swagger 2.0, an unknown version and a base URL that is not http(s) or carries credentials', async () => {
    const info = { title: 't', version: '1' };
    await expect(fromOpenApi({ swagger: '2.0', info, paths: {} }, { baseUrl: 'http://x' })).rejects.toThrow(
      /Swagger 2\.0 .* convert/,
    );
    await expect(fromOpenApi({ openapi: '4.0.0', info, paths: {} }, { baseUrl: 'http://x' })).rejects.toThrow(
      /version/i,
    );
    await expect(
      fromOpenApi({ openapi: '3.1.0', info, paths: {} }, { baseUrl: 'file:///etc' }),
    ).rejects.toThrow(/http/);
    await expect(
      fromOpenApi({ openapi: '3.1.0', info, paths: {} }, { baseUrl: 'http://u:p@x' }),
    ).rejects.toThrow(/credentials/);
    await expect(
      fromOpenApi('test/support/fixtures/openapi/none.yaml', { baseUrl: 'http://x' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('refuses a document nested 50 000 levels deep with a message, not a stack overflow', async () => {
    const deep = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    const path = join(tmpdir(), `mcpkit-deep-${process.pid}.json`);
    writeFileSync(path, deep);
    try {
      await expect(fromOpenApi(path, { baseUrl: 'http://x' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/nested (too deep|deeper than 256 levels)/),
      });
    } finally {
      rmSync(path);
    }
  });
});

describe.each(['modern', 'legacy'] as const)('a misbehaving upstream (%s)', (era) => {
  it('gives an error result naming the operation and what happened: non-JSON, broken JSON, 5xx, wrong shape, timeout, size', async () => {
    const { client } = await serve(era);
    const cases: Array<[string, RegExp]> = [
      [
        'htmlAnswer',
        /^htmlAnswer \(GET \/edge\/html\): upstream answered HTTP 200 OK with text\/html, not the JSON/,
      ],
      ['brokenJson', /^brokenJson \(GET \/edge\/broken\): .*HTTP 200 OK with a body that is not valid JSON/],
      ['crash', /^crash \(GET \/edge\/crash\): upstream answered HTTP 503 Service Unavailable/],
      ['wrongShape', /^wrongShape \(GET \/edge\/wrong\): .*does not match its response schema/],
      ['hang', /^hang \(GET \/edge\/hang\): upstream did not answer within 300 ms \(timeout\)/],
      ['big', /^big \(GET \/edge\/big\): upstream answer of \d+ bytes is over the 16384-byte bound/],
    ];
    for (const [tool, expected] of cases) {
      const result = await client.callTool(tool, {});
      expect(result.isError, tool).toBe(true);
      expect((result.content[0] as { text: string }).text, tool).toMatch(expected);
    }
    await client.close();
  });

  it('never lets a configured token or API key into a result or an error, even when the upstream echoes them', async () => {
    const { client } = await serve(era);
    const outputs: unknown[] = [];
    for (const tool of ['echoCredentials', 'crash', 'htmlAnswer', 'hang', 'wrongShape'])
      outputs.push(await client.callTool(tool, {}));
    outputs.push(await client.callTool('shapeOf', { kind: 'dog', body: { kind: 'dog', good: true } }));
    const seen = store.seen.find((r) => r.url === '/v3/edge/echo')!;
    expect(seen.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'x-api-key': API_KEY,
      'x-client': 'tests',
    });
    const echoed = outputs[0] as { structuredContent: Record<string, unknown> };
    const value = era === 'legacy' ? echoed.structuredContent : echoed.structuredContent;
    expect(JSON.stringify(value)).toMatch(/Bearer \[redacted\]/);
    const all = JSON.stringify(outputs);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(API_KEY);
    await client.close();
  });

  it('keeps basic-auth passwords and query API keys out of results too', async () => {
    for (const auth of [
      { type: 'basic', username: 'ada', password: 'pw-9c1e0b' },
      { type: 'apiKey', in: 'query', name: 'key', value: 'qk-77aa1f' },
    ] as const) {
      const { client } = await serve(era, { auth });
      const result = await client.callTool('crash', {});
      const echo = await client.callTool('echoCredentials', {});
      const text = JSON.stringify([result, echo]);
      expect(text).not.toContain(auth.type === 'basic' ? auth.password : auth.value);
      expect(text).not.toContain(auth.type === 'basic' ? btoa('ada:pw-9c1e0b') : 'qk-77aa1f');
      await client.close();
    }
    expect(store.seen.some((r) => r.url.includes('key=qk-77aa1f'))).toBe(true);
  });
});
