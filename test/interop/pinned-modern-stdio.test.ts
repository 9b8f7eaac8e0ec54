/**
 * A client pinned to the modern era over stdio sends `server/discover` first (2026-07-28
 * basic/versioning "Compatibility Matrix"), so a legacy server fails at once with an
 * actionable error instead of being served degraded, and a modern one tells its capabilities.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type EraPreference } from '../../src/client/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { OUR_EVERYTHING, referenceEntry, tap } from './helpers.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(era: EraPreference, args: string[]) {
  const client = createClient({ name: 'pinned', version: '0.0.0', era });
  clients.push(client);
  const transport = tap(spawnStdio({ command: process.execPath, args }));
  const connecting = client.connect(transport);
  return { client, frames: transport.frames, connecting };
}

const methodsSent = (frames: { direction: string; message: Record<string, unknown> }[]) =>
  frames.filter((f) => f.direction === 'out' && 'method' in f.message).map((f) => f.message.method);

describe("createClient({ era: 'modern' }) over stdio", () => {
  it('fails at once against the official (legacy) everything server, saying to use auto', async () => {
    const { connecting, frames } = await connect('modern', [referenceEntry('server-everything'), 'stdio']);
    await expect(connecting).rejects.toMatchObject({
      code: 'UNSUPPORTED_ERA',
      message: expect.stringContaining("connect with era 'auto'"),
    });
    expect(methodsSent(frames)).toEqual(['server/discover']);
  });

  it('against the same server with era auto, is served in full (the server itself works)', async () => {
    const { client, connecting } = await connect('auto', [referenceEntry('server-everything'), 'stdio']);
    await connecting;
    expect(client.era).toBe('legacy');
    expect(client.serverCapabilities?.tools).toBeDefined();
  });

  it('against a modern server, learns its capabilities from server/discover', async () => {
    const { client, connecting, frames } = await connect('modern', [OUR_EVERYTHING]);
    await connecting;
    expect(client.era).toBe('modern');
    expect(client.serverCapabilities?.tools).toBeDefined();
    expect(methodsSent(frames)).toEqual(['server/discover']);
  });
});
