/**
 * Connects our client to an official reference server started as a child process
 * (`node <package bin>`), and closes every such session at the end of a test file.
 */
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { referenceEntry, tap, wireViolations, type Frame, type ReferenceServer } from './helpers.js';

/** Our client connected to a reference server, with every frame and notification it saw. */
export interface Session {
  client: Client;
  frames: Frame[];
  notifications: JsonRpcNotification[];
}

const open: Session[] = [];

/**
 * Starts `server` with `args` (and `env` added to the child's minimal environment) and
 * connects our client to it; the era is 'auto' unless `options` pins one.
 */
export async function connectTo(
  server: ReferenceServer,
  args: string[],
  options: Partial<ClientOptions> & { env?: Record<string, string> } = {},
): Promise<Session> {
  const { env, ...clientOptions } = options;
  const notifications: JsonRpcNotification[] = [];
  const client = createClient({
    name: 'mcpkit-interop',
    version: '0.0.0',
    onNotification: (n) => notifications.push(n),
    ...clientOptions,
  });
  const transport = tap(
    spawnStdio({
      command: process.execPath,
      args: [referenceEntry(server), ...args],
      ...(env ? { env } : {}),
    }),
  );
  await client.connect(transport);
  const session = { client, frames: transport.frames, notifications };
  open.push(session);
  return session;
}

/**
 * Closes every session opened by {@link connectTo} and returns the schema violations
 * among the frames our client sent (2025-11-25, the era probe excepted): expected empty.
 */
export async function closeSessions(): Promise<string[]> {
  const violations: string[] = [];
  for (const session of open.splice(0)) {
    await session.client.close();
    violations.push(...wireViolations(session.frames, '2025-11-25', ['out']));
  }
  return violations;
}
