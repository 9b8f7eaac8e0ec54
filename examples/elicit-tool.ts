/**
 * A tool that asks the user for input, written once for both eras: on a legacy session
 * `ctx.elicit` sends an `elicitation/create` request; on a modern request the SDK answers
 * `input_required` with a sealed `requestState` and runs the handler again on the retry.
 *
 * It is a stdio server, so it waits for a client on stdin. Run the client example, which
 * starts it:  npm run build && node dist/examples/client.js
 * (The CLI cannot call book-table: it declares no elicitation support, and the server
 * answers -32021 naming the missing capability.)
 */
import { z } from 'zod';
import { createServer } from '../src/server/index.js';
import { serveStdio } from '../src/integrations/stdio/index.js';

const server = createServer({
  name: 'booking',
  version: '1.0.0',
  // A fleet shares the key ring so any instance can open the state another sealed:
  // requestState: { keys: [{ id: 'k2', secret: key2 }, { id: 'k1', secret: key1 }] },
});

server.tool(
  'book-table',
  { description: 'Books a table after asking for the details' },
  async (_args, ctx) => {
    // A Standard Schema (zod here): sent as JSON Schema, the answer comes back parsed and typed.
    const people = await ctx.elicit(
      { message: 'How many people?', requestedSchema: z.object({ count: z.number().int().min(1) }) },
      { key: 'people' },
    );
    if (people.action !== 'accept') return 'Booking cancelled.';
    // Plain JSON Schema works too; `content` is then an untyped record.
    const confirm = await ctx.elicit(
      {
        mode: 'form',
        message: `Book for ${people.content.count}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
      { key: 'confirm' },
    );
    return confirm.content?.ok === true ? 'Booked.' : 'Not booked.';
  },
);

void serveStdio(server);
