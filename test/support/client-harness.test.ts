import { describe, expect, it } from 'vitest';
import { checkClientMessage } from './client-harness.js';
import type { JsonRpcMessage } from '../../src/core/jsonrpc.js';
import { META } from '../../src/core/revisions.js';

describe('the client harness', () => {
  it('rejects a modern request that lacks the required _meta fields', () => {
    const bad: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { [META.protocolVersion]: '2026-07-28' } },
    };
    expect(() => checkClientMessage(bad, '2026-07-28')).toThrow(/ClientRequest/);
  });

  it('accepts a legacy initialize against the 2025-11-25 schema', () => {
    const init: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    };
    expect(() => checkClientMessage(init, '2025-11-25')).not.toThrow();
  });
});
