import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../../client/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { connect, createServer, transformTool, type McpServer } from '../index.js';

async function open(server: McpServer, era: 'modern' | 'legacy') {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return client;
}

describe.each(['modern', 'legacy'] as const)('scratch (%s)', (era) => {
  it('works', async () => {
    const child = createServer({ name: 'child', version: '1' });
    child.tool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => String(a + b));
    const parent = createServer({ name: 'parent', version: '1' });
    parent.mount('math', child);
    parent.transform(transformTool('math__add', { name: 'plus', arguments: { b: { value: 1 } } }));
    const c = await open(parent, era);
    console.log(JSON.stringify(await c.listTools()));
    console.log(JSON.stringify(await c.callTool('plus', { a: 2 })));
  });
});
