import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEverythingServer, EVERYTHING_NAME, EVERYTHING_VERSION } from './server.js';
import {
  errorOf,
  modernRequest,
  onlyContent,
  openHarness,
  type Harness,
} from '../../test/support/everything.js';

let h: Harness;

beforeEach(async () => {
  h = await openHarness(createEverythingServer(), '2026-07-28');
});
afterEach(async () => {
  await h.close();
  expect(h.violations).toEqual([]);
});

describe('everything server on the 2026-07-28 wire', () => {
  it('names itself and declares its capabilities in server/discover', async () => {
    const result = await modernRequest(h, 'server/discover');
    expect(result.supportedVersions).toContain('2026-07-28');
    expect(result.capabilities).toMatchObject({ tools: {}, prompts: {}, completions: {}, resources: {} });
    expect(result._meta).toMatchObject({
      'io.modelcontextprotocol/serverInfo': { name: EVERYTHING_NAME, version: EVERYTHING_VERSION },
    });
  });

  it('puts resultType and cache hints on every cacheable result', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const result = await modernRequest(h, method);
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number) });
      expect(['public', 'private']).toContain(result.cacheScope);
    }
    const read = await modernRequest(h, 'resources/read', { uri: 'test://static-text' });
    expect(read).toMatchObject({ resultType: 'complete', cacheScope: expect.any(String) });
  });

  it('refuses test_missing_capability with -32021 naming sampling as an object', async () => {
    const error = await errorOf(modernRequest(h, 'tools/call', { name: 'test_missing_capability' }));
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('sends no log message when the request sets no log level', async () => {
    await modernRequest(h, 'tools/call', { name: 'test_logging_tool' });
    await modernRequest(h, 'tools/call', { name: 'test_tool_with_logging' });
    expect(h.notifications.filter((n) => n.method === 'notifications/message')).toEqual([]);
  });

  it('sends log messages at or above the level the request sets', async () => {
    const meta = { 'io.modelcontextprotocol/logLevel': 'info' };
    await modernRequest(h, 'tools/call', { name: 'test_tool_with_logging' }, { meta });
    const logs = h.notifications.filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => n.params?.level)).toEqual(['info', 'info', 'info']);
  });

  it('answers the legacy-only methods with -32601', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe']) {
      const error = await errorOf(modernRequest(h, method, { uri: 'test://watched-resource' }));
      expect(error.code).toBe(-32601);
    }
  });

  it('completes test_input_required_result_capabilities when the client declares nothing', async () => {
    const result = await modernRequest(h, 'tools/call', { name: 'test_input_required_result_capabilities' });
    expect(onlyContent(result).type).toBe('text');
  });
});
