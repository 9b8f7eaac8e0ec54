/**
 * A server that keeps notes per caller in `ctx.userState` (`note_set`, `note_get`,
 * `note_delete`). No Node module: Workers under test bundle it too.
 */
import { z } from 'zod';
import { createServer, type McpServer, type ServerOptions } from '../../src/server/index.js';

/** The notes server; `options` as for `createServer` (e.g. `userState`). */
export function notesServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = createServer({ name: 'notes', version: '1.0.0', ...options });
  server.tool(
    'note_set',
    {
      description: 'Keeps a note for the caller',
      inputSchema: z.object({ key: z.string(), value: z.unknown(), ttlMs: z.number().optional() }),
    },
    async ({ key, value, ttlMs }, ctx) => {
      await ctx.userState.set(key, value, ttlMs === undefined ? {} : { ttlMs });
      return 'kept';
    },
  );
  server.tool(
    'note_get',
    { description: "Reads one of the caller's notes", inputSchema: z.object({ key: z.string() }) },
    async ({ key }, ctx) => JSON.stringify((await ctx.userState.get(key)) ?? null),
  );
  server.tool(
    'note_delete',
    { description: "Forgets one of the caller's notes", inputSchema: z.object({ key: z.string() }) },
    async ({ key }, ctx) => String(await ctx.userState.delete(key)),
  );
  return server;
}
