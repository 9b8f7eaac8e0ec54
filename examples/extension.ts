/**
 * Writing an extension: `com.example/notes` adds `notes/add` and `notes/list`, typed on
 * the client through `ExtensionRequestMap`, and stamps a `_meta` note count on the results
 * of clients that negotiated it. A client that did not declare it gets -32601.
 * Client and server run in one process over the in-memory pair.
 *
 * Run: npm run build && node dist/examples/extension.js
 * In your project, import from 'mcpkit', 'mcpkit/server', 'mcpkit/client' and 'mcpkit/testing'.
 */
import { WireError } from '../src/core/index.js';
import { connect, createServer, defineExtension, negotiated, type MethodsOf } from '../src/server/index.js';
import { createClient } from '../src/client/index.js';
import { createLinkedPair } from '../src/testing/index.js';

const NOTES = 'com.example/notes';
const notes: string[] = [];

const notesExtension = defineExtension({
  id: NOTES,
  settings: { maxLength: 200 },
  methods: {
    'notes/add': (params: { text?: unknown }) => {
      if (typeof params.text !== 'string' || params.text.length > 200)
        throw WireError.of('InvalidParams', 'text must be a string of at most 200 characters');
      notes.push(params.text);
      return { count: notes.length };
    },
    'notes/list': (_params: object, ctx) => ({
      notes: [...notes],
      style: negotiated(ctx, NOTES)?.style ?? 'plain',
    }),
  },
  resultMeta: () => ({ 'com.example/notes-count': notes.length }),
});

declare module '../src/core/index.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds the members
  interface ExtensionRequestMap extends MethodsOf<typeof notesExtension> {}
}

async function clientFor(server: ReturnType<typeof createServer>, declared: boolean) {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const extensions = declared ? [{ id: NOTES, settings: { style: 'bullets' } }] : [];
  const client = createClient({ name: 'notes-client', version: '1.0.0', extensions });
  await client.connect(a);
  return client;
}

async function main(): Promise<void> {
  const server = createServer({ name: 'notes-server', version: '1.0.0', extensions: [notesExtension] });
  const client = await clientFor(server, true);
  console.log('server declares', client.serverExtension(NOTES));
  const { count } = await client.request('notes/add', { text: 'buy milk' }); // typed: { count: number }
  const listed = await client.request('notes/list', {});
  console.log(`added (${count}); notes: ${listed.notes.join(', ')} as ${listed.style}`);
  const other = await clientFor(server, false);
  await other
    .request('notes/list', {})
    .catch((e: WireError) => console.log(`undeclared client: ${e.code} ${e.message}`));
  await Promise.all([client.close(), other.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
