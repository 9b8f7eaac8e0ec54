import { describe, expect, it } from 'vitest';
import { runtimeOf } from './runtime.js';
import type { Params } from '../core/jsonrpc.js';
import { createServer } from './index.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('prompts/get argument checks', () => {
  it.each(['constructor', 'toString'])(
    'reports a required argument named %s as missing when the client leaves it out',
    async (name) => {
      const server = createServer({ name: 't', version: '1' });
      server.prompt('p', { arguments: [{ name, required: true }] }, () => [
        { role: 'user', content: { type: 'text', text: 'hi' } },
      ]);
      const get = runtimeOf(server).handle(
        { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'p', arguments: {}, _meta: META } },
        { signal: new AbortController().signal, notify: () => undefined, era: 'modern' },
      );
      await expect(get).rejects.toMatchObject({ code: -32602 } satisfies Partial<Params>);
    },
  );
});
