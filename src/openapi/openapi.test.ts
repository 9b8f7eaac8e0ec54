import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../client/index.js';
import { connect } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { startPetstore, type Petstore } from '../../test/support/petstore.js';
import { fromOpenApi, type OpenApiOptions } from './index.js';

const PETSTORE = 'test/support/fixtures/openapi/petstore3.yaml';
const EDGE = 'test/support/fixtures/openapi/edge.json';
const TOKEN = 'sekret-token-4f1c9a';

let store: Petstore;
beforeEach(async () => {
  store = await startPetstore({ token: TOKEN });
});
afterEach(() => store.close());

async function serve(era: 'modern' | 'legacy', spec: string, options: Partial<OpenApiOptions> = {}) {
  const served = await fromOpenApi(spec, {
    baseUrl: store.baseUrl,
    auth: { type: 'bearer', token: TOKEN },
    ...options,
  });
  const [a, b] = createLinkedPair();
  await connect(served.server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return { served, client };
}

type Result = Awaited<ReturnType<Client['callTool']>>;
/** The structured value: legacy revisions need an object, so mcpkit wraps other values in `result`. */
const valueOf = (era: string, result: Result, wrapped: boolean) =>
  era === 'legacy' && wrapped
    ? (result.structuredContent as { result: unknown }).result
    : result.structuredContent;
const textOf = (result: Result) =>
  (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

describe.each(['modern', 'legacy'] as const)('the Petstore 3.0 document as MCP tools (%s)', (era) => {
  it('lists each operation as a tool with input from its parameters and body, output from its 2xx response', async () => {
    const { served, client } = await serve(era, PETSTORE);
    expect(served.tools).toContain('getPetById');
    expect(served.issues).toEqual([
      expect.objectContaining({ operationId: 'uploadFile', message: expect.stringMatching(/octet-stream/) }),
    ]);
    const tools = await client.listTools();
    expect(tools).toHaveLength(served.tools.length);
    const get = tools.find((t) => t.name === 'getPetById')!;
    expect(get.inputSchema).toMatchObject({
      type: 'object',
      properties: { petId: { type: 'integer', description: 'ID of pet to return' } },
      required: ['petId'],
    });
    expect(get.outputSchema).toMatchObject({ type: 'object', required: ['name', 'photoUrls'] });
    expect(JSON.stringify(get.outputSchema)).not.toMatch(/"xml"|"example"|x-swagger/);
    expect(get.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const add = tools.find((t) => t.name === 'addPet')!;
    expect(add.inputSchema).toMatchObject({ required: ['body'], properties: { body: { type: 'object' } } });
    await client.close();
  });

  it('sends path, query, header and body parameters with the bearer token, and returns structured results', async () => {
    const { client } = await serve(era, PETSTORE);
    const pet = { id: 7, name: 'Tom', photoUrls: ['p'], status: 'pending', tags: [{ id: 2, name: 'cat' }] };
    const added = await client.callTool('addPet', { body: pet });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toEqual(pet);
    expect((await client.callTool('getPetById', { petId: 7 })).structuredContent).toEqual(pet);
    const byTags = await client.callTool('findPetsByTags', { tags: ['cat', 'dog'] });
    expect((valueOf(era, byTags, true) as Array<{ id: number }>).map((p) => p.id).sort()).toEqual([1, 7]);
    expect(store.seen.at(-1)!.url).toBe('/v3/pet/findByTags?tags=cat&tags=dog');
    const renamed = await client.callTool('updatePetWithForm', { petId: 7, name: 'Thomas' });
    expect(renamed.isError).toBeFalsy();
    expect(store.seen.at(-1)).toMatchObject({ method: 'POST', url: '/v3/pet/7?name=Thomas' });
    expect((await client.callTool('deletePet', { petId: 7, api_key: 'special-key' })).isError).toBeFalsy();
    expect(store.seen.at(-1)!.headers).toMatchObject({
      api_key: 'special-key',
      authorization: `Bearer ${TOKEN}`,
    });
    const login = await client.callTool('loginUser', { username: 'ada', password: 'pw' });
    expect(valueOf(era, login, true)).toBe('logged in user session:ada');
    await client.close();
  });

  it('gives a 404 as an error result naming the operation and the status', async () => {
    const { client } = await serve(era, PETSTORE);
    const missing = await client.callTool('getPetById', { petId: 999 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(
      /^getPetById \(GET \/pet\/\{petId\}\): upstream answered HTTP 404 Not Found/,
    );
    const invalid = await client.callTool('getPetById', { petId: 'seven' });
    expect(invalid.isError).toBe(true);
    expect(store.seen.filter((r) => r.url.includes('seven'))).toEqual([]);
    await client.close();
  });

  it('keeps a path value inside its segment: `..` and `/` reach the API encoded', async () => {
    const { client } = await serve(era, PETSTORE);
    const seen = store.seen.length;
    const dots = await client.callTool('getUserByName', { username: '..' });
    expect(dots.isError).toBe(true);
    expect(textOf(dots)).toMatch(/getUserByName .*cannot be "\.\."/);
    expect(store.seen.length).toBe(seen);
    await client.callTool('getUserByName', { username: '../../pet/1' });
    expect(store.seen.at(-1)!.url).toBe('/v3/user/..%2F..%2Fpet%2F1');
    await client.close();
  });

  it('checks a oneOf body against its $ref branches and sends path, query and header values (OpenAPI 3.1)', async () => {
    const { client } = await serve(era, EDGE);
    const dog = await client.callTool('shapeOf', {
      kind: 'dog',
      verbose: true,
      'X-Trace': 't1',
      body: { kind: 'dog', good: true },
    });
    expect(valueOf(era, dog, true)).toEqual({ kind: 'dog', good: true });
    expect(store.seen.at(-1)).toMatchObject({ method: 'POST', url: '/v3/edge/shape/dog?verbose=true' });
    expect(store.seen.at(-1)!.headers).toMatchObject({ 'x-trace': 't1', 'content-type': 'application/json' });
    const seen = store.seen.length;
    const nine = await client.callTool('shapeOf', { kind: 'cat', body: { kind: 'cat', lives: 10 } });
    expect(nine.isError).toBe(true);
    expect(store.seen.length).toBe(seen);
    await client.close();
  });

  it('serves GET operations as resources by route map and leaves excluded ones out', async () => {
    const { served, client } = await serve(era, PETSTORE, {
      routes: [
        { methods: ['GET'], pattern: /^\/pet\/\{petId\}$/, to: 'resource' },
        { methods: ['GET'], pattern: /^\/store\/inventory$/, to: 'resource' },
        { tags: ['user'], to: 'exclude' },
      ],
    });
    expect(served.tools).not.toContain('getPetById');
    expect(served.tools.some((t) => /user/i.test(t))).toBe(false);
    const resourceTemplates = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([`${store.baseUrl}/pet/{petId}`]);
    const read = await client.readResource(`${store.baseUrl}/pet/1`);
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: 1, name: 'Rex' });
    const inventory = await client.readResource(`${store.baseUrl}/store/inventory`);
    expect(JSON.parse((inventory.contents[0] as { text: string }).text)).toEqual({ available: 1 });
    await expect(client.readResource(`${store.baseUrl}/pet/404`)).rejects.toThrow(/getPetById.*HTTP 404/);
    await client.close();
  });
});
