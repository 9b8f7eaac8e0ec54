import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer } from './index.js';

/** A server whose templates echo the variables they matched, read by an mcpkit client. */
async function open(era: 'modern' | 'legacy') {
  const server = createServer({ name: 'templates', version: '1' });
  const echo = (uri: string, vars: Record<string, string>) => [{ uri, text: JSON.stringify(vars) }];
  server.resourceTemplate('notes://café/{id}', {}, echo);
  server.resourceTemplate('files:///{+path}', {}, echo);
  server.resourceTemplate('search://q{?term,limit}', {}, echo);
  server.resourceTemplate('tree://root{/segments*}', {}, echo);
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  const read = async (uri: string) =>
    JSON.parse(((await client.readResource(uri)).contents[0] as { text: string }).text) as unknown;
  return { client, read };
}

describe.each(['modern', 'legacy'] as const)('resources/read of templated URIs (%s)', (era) => {
  it('matches what RFC 6570 expansion of the advertised template produces, and the raw form', async () => {
    const { client, read } = await open(era);
    expect(await read('notes://caf%C3%A9/1')).toEqual({ id: '1' });
    expect(await read('notes://café/1')).toEqual({ id: '1' });
    expect(await read('files:///home/ada/caf%C3%A9%20au%20lait.txt')).toEqual({
      path: 'home/ada/café au lait.txt',
    });
    expect(await read('search://q?limit=5&term=caf%C3%A9')).toEqual({ term: 'café', limit: '5' });
    expect(await read('tree://root/a/b%2Fc')).toEqual({ segments: 'a,b/c' });
    await expect(client.readResource('notes://cafe/1')).rejects.toThrow(/Resource not found/);
    await client.close();
  });
});
