/**
 * Tool search: a server with 1 000 tools served as two, `search_tools` and `call_tool`
 * (the `toolSearch()` transform), with an admin-only tool that other callers can neither find
 * nor call. A client finds a tool by what it does, then calls it. Prints and exits.
 *
 * Run: npm run build && node dist/examples/tool-search.js
 * In your project, import from 'mcpkit/tool-search', 'mcpkit/server', 'mcpkit/client' and 'mcpkit/testing'.
 */
import { createClient } from '../src/client/index.js';
import { connect, createServer, visibleByTags } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';
import { toolSearch } from '../src/tool-search/index.js';

const server = createServer({ name: 'many-tools', version: '1.0.0' });
const areas = ['invoice', 'customer', 'ticket', 'shipment', 'report'];
for (let i = 0; i < 1000; i++) {
  const area = areas[i % areas.length]!;
  server.tool(`${area}_${i}`, { description: `Looks up ${area} number ${i}` }, () => `${area} #${i}: ok`);
}
server.tool(
  'convert_currency',
  {
    description: 'Converts an amount of money from one currency to another',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
      required: ['amount', 'from', 'to'],
    },
  },
  (args) =>
    `${String(args.amount)} ${String(args.from)} is about ${(Number(args.amount) * 1.08).toFixed(2)} ${String(args.to)}`,
);
server.tool('drop_database', { description: 'Deletes the whole database', tags: ['admin'] }, () => 'dropped');
// Callers see tagged tools only when their token's scopes hold the tag; then tool search replaces the list.
server.transform(
  visibleByTags((caller) => caller.auth?.scopes ?? []),
  toolSearch(),
);

const [clientSide, serverSide] = createLinkedPair();
await connect(server, serverSide);
const client = createClient({ name: 'example', version: '1.0.0' });
await client.connect(clientSide);

console.log('tools listed:', (await client.listTools()).map((t) => t.name).join(', '));
const found = await client.callTool('search_tools', { query: 'convert money between currencies', limit: 3 });
const hits = (found.structuredContent as { tools: Array<{ name: string }> }).tools;
console.log('search_tools →', hits.map((h) => h.name).join(', '));
const called = await client.callTool('call_tool', {
  name: hits[0]!.name,
  arguments: { amount: 10, from: 'EUR', to: 'USD' },
});
console.log('call_tool →', (called.content[0] as { text: string }).text);
const hidden = await client.callTool('call_tool', { name: 'drop_database' });
console.log('call_tool drop_database →', (hidden.content[0] as { text: string }).text);
await client.close();
