import { describe, expect, it } from 'vitest';
import type { LocalError } from '../core/errors.js';
import { spawnStdio } from '../integrations/stdio/index.js';
import { createClient } from './index.js';

/** A legacy stdio server that answers the handshake, then dies on `tools/call`. */
const CRASHY = `
const out = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') out(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'crashy', version: '1' } });
  else if (m.method === 'tools/list') out(m.id, { tools: [{ name: 'boom', inputSchema: { type: 'object' } }] });
  else if (m.method === 'tools/call') { process.stderr.write('out of memory, giving up\\n'); process.exit(7); }
  else if (m.id !== undefined) out(m.id, {});
});`;

describe('a stdio server that dies', () => {
  it('fails the call in flight and every later one with why it closed, and the client stays closed', async () => {
    const client = createClient({ name: 'c', version: '1', era: 'legacy' });
    await client.connect(spawnStdio({ command: process.execPath, args: ['-e', CRASHY] }));
    const first = (await client.callTool('boom', {}).catch((e: unknown) => e)) as LocalError;
    expect(first.code).toBe('CONNECTION_CLOSED');
    expect(first.message).toMatch(/exited with code 7.*out of memory, giving up/s);
    for (const later of [() => client.callTool('boom', {}), () => client.listTools(), () => client.ping()]) {
      const error = (await later().catch((e: unknown) => e)) as LocalError;
      expect(error.code).toBe('CONNECTION_CLOSED');
      expect(error.message).toMatch(
        /^the connection to the server is closed: .*exited with code 7.*out of memory/s,
      );
    }
    await client.close();
    const afterClose = (await client.listTools().catch((e: unknown) => e)) as LocalError;
    expect(afterClose.message).toMatch(/exited with code 7|not connected/);
  });
});
