import { describe, expect, it } from 'vitest';
import { assertWireValid, wireValidator } from './wire-schema.js';

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const toolsCall = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { _meta: modernMeta, name: 'get_weather', arguments: { location: 'Paris' } },
};

const completeResult = {
  jsonrpc: '2.0',
  id: 7,
  result: { resultType: 'complete', content: [{ type: 'text', text: '18°C' }] },
};

const legacyResult = {
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: '18°C' }] },
};

describe('assertWireValid', () => {
  it('accepts a modern tools/call request and a complete result', () => {
    expect(() => assertWireValid(toolsCall, '2026-07-28')).not.toThrow();
    expect(() => assertWireValid(completeResult, '2026-07-28')).not.toThrow();
  });

  it('rejects a 2026 result without resultType', () => {
    expect(() => assertWireValid(legacyResult, '2026-07-28')).toThrow(/resultType/);
  });

  it('accepts the same result without resultType under 2025-11-25', () => {
    expect(() => assertWireValid(legacyResult, '2025-11-25')).not.toThrow();
  });

  it('accepts a legacy initialize request', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    };
    expect(() => assertWireValid(initialize, '2025-11-25')).not.toThrow();
  });

  it('checks the envelope only, leaving request params open as JSONRPCMessage does', () => {
    const noMeta = { ...toolsCall, params: { name: 'get_weather' } };
    expect(wireValidator('2026-07-28')(noMeta)).toEqual([]);
  });

  it('rejects a wrong jsonrpc version and a result response with a null id', () => {
    expect(wireValidator('2026-07-28')({ ...toolsCall, jsonrpc: '1.0' }).length).toBeGreaterThan(0);
    expect(wireValidator('2025-11-25')({ ...legacyResult, id: null }).length).toBeGreaterThan(0);
  });

  it('rejects an error response whose code is not an integer and names the message', () => {
    const bad = { jsonrpc: '2.0', id: 1, error: { code: 'oops', message: 'x' } };
    expect(() => assertWireValid(bad, '2026-07-28')).toThrow(/"code":"oops"/);
  });

  it('accepts notifications in both revisions', () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1, total: 2 },
    };
    expect(wireValidator('2026-07-28')(progress)).toEqual([]);
    expect(wireValidator('2025-11-25')(progress)).toEqual([]);
  });
});
