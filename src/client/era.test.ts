import { describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import { META } from '../core/revisions.js';
import { connectFake, discoverResult, legacy, modern, startFake } from '../../test/support/client-harness.js';
import type { EraCache } from './index.js';

const methodsOf = (fake: { received: { method: string }[] }) => fake.received.map((r) => r.method);

describe('era detection (stdio Backward Compatibility)', () => {
  it('treats a server that answers server/discover as modern and adopts what it describes', async () => {
    const fake = await connectFake(
      modern({ 'server/discover': () => discoverResult({ instructions: 'be nice' }) }),
    );
    expect(fake.client.era).toBe('modern');
    expect(fake.client.protocolVersion).toBe('2026-07-28');
    expect(fake.client.serverInfo).toEqual({ name: 'fake', version: '0.0.1' });
    expect(fake.client.serverCapabilities).toEqual({ tools: {} });
    expect(fake.client.instructions).toBe('be nice');
    expect(methodsOf(fake)).toEqual(['server/discover']);
    expect(fake.received[0]?.params?._meta).toMatchObject({ [META.protocolVersion]: '2026-07-28' });
  });

  it('re-probes with a mutually supported version after -32022 and stays modern', async () => {
    const fake = await connectFake(
      {
        'server/discover': (params) => {
          const asked = (params._meta as Record<string, unknown>)[META.protocolVersion];
          if (asked === '2026-07-28') return discoverResult();
          throw WireError.of('UnsupportedProtocolVersion', 'no', {
            supported: ['2026-07-28'],
            requested: asked,
          });
        },
      },
      { protocolVersion: '2099-01-01' },
    );
    expect(fake.client.era).toBe('modern');
    expect(fake.client.protocolVersion).toBe('2026-07-28');
    expect(methodsOf(fake)).toEqual(['server/discover', 'server/discover']);
  });

  it('fails with UNSUPPORTED_ERA when -32022 lists no version the client speaks, without initialize', async () => {
    const fake = await startFake({
      'server/discover': () => {
        throw WireError.of('UnsupportedProtocolVersion', 'no', {
          supported: ['2099-01-01'],
          requested: '2026-07-28',
        });
      },
      ...legacy(),
    });
    await expect(fake.client.connect(fake.transport)).rejects.toMatchObject({ code: 'UNSUPPORTED_ERA' });
    expect(methodsOf(fake)).toEqual(['server/discover']);
  });

  it('treats another recognised modern error as modern', async () => {
    const fake = await connectFake({
      'server/discover': () => {
        throw WireError.of('MissingRequiredClientCapability', 'need roots', {
          requiredCapabilities: { roots: {} },
        });
      },
    });
    expect(fake.client.era).toBe('modern');
    expect(methodsOf(fake)).toEqual(['server/discover']);
  });

  it.each([
    ['-32601 method not found', WireError.of('MethodNotFound', 'nope')],
    ['-32602 invalid params', WireError.of('InvalidParams', 'not initialized')],
    ['-32600 invalid request', WireError.of('InvalidRequest', 'initialize first')],
  ])('falls back to initialize when the probe gets %s', async (_name, error) => {
    const fake = await connectFake(
      legacy({
        'server/discover': () => {
          throw error;
        },
      }),
      {},
      '2025-11-25',
    );
    expect(fake.client.era).toBe('legacy');
    expect(fake.client.protocolVersion).toBe('2025-11-25');
    expect(fake.client.serverInfo).toEqual({ name: 'old', version: '0.1.0' });
    expect(methodsOf(fake)).toEqual(['server/discover', 'initialize']);
    expect(fake.notifications.map((n) => n.method)).toContain('notifications/initialized');
  });

  it('falls back to initialize when the probe gets a result that is not a DiscoverResult', async () => {
    const fake = await connectFake(legacy({ 'server/discover': () => ({}) }), {}, '2025-11-25');
    expect(fake.client.era).toBe('legacy');
  });

  it('uses initialize when a discovering server offers only legacy versions', async () => {
    const onlyLegacy = () => discoverResult({ supportedVersions: ['2025-06-18'] });
    const fake = await connectFake(legacy({ 'server/discover': onlyLegacy }, '2025-06-18'), {}, '2025-11-25');
    expect(fake.client.era).toBe('legacy');
    expect(fake.client.protocolVersion).toBe('2025-06-18');
  });

  it('falls back to initialize when the probe meets silence', async () => {
    const silent = () => new Promise<never>(() => {});
    const fake = await connectFake(
      legacy({ 'server/discover': silent }),
      { probeTimeoutMs: 30 },
      '2025-11-25',
    );
    expect(fake.client.era).toBe('legacy');
    expect(methodsOf(fake)).toEqual(['server/discover', 'initialize']);
  });

  it('sends initialize with the legacy version, capabilities and clientInfo', async () => {
    const fake = await connectFake(legacy(), { era: 'legacy', title: 'Test' }, '2025-11-25');
    expect(fake.received[0]?.params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test-client', version: '1.0.0', title: 'Test' },
    });
  });

  it('accepts an older legacy version the server answers with', async () => {
    const fake = await connectFake(legacy({}, '2025-03-26'), { era: 'legacy' }, '2025-11-25');
    expect(fake.client.protocolVersion).toBe('2025-03-26');
  });

  it('closes and fails with UNSUPPORTED_ERA naming a version it does not speak', async () => {
    const fake = await startFake(legacy({}, '1999-01-01'), { era: 'legacy' }, '2025-11-25');
    await expect(fake.client.connect(fake.transport)).rejects.toThrow(/1999-01-01/);
    expect(fake.server.isClosed).toBe(true);
  });

  it('sends no probe when the era is pinned to modern', async () => {
    const fake = await connectFake(
      modern({ 'tools/list': () => ({ resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' }) }),
      { era: 'modern' },
    );
    expect(fake.received).toEqual([]);
    expect(fake.client.serverCapabilities).toBeUndefined();
    await fake.client.listTools();
    expect(methodsOf(fake)).toEqual(['tools/list']);
  });

  it('sends initialize first when the era is pinned to legacy', async () => {
    const fake = await connectFake(legacy(), { era: 'legacy' }, '2025-11-25');
    expect(methodsOf(fake)).toEqual(['initialize']);
  });

  it('caches the verdict so the next connection to the same server skips the probe', async () => {
    const eraCache: EraCache = new Map();
    const options = { eraCache, cacheKey: 'old-server' };
    await connectFake(legacy(), options, '2025-11-25');
    expect(eraCache.get('old-server')).toBe('legacy');
    const second = await connectFake(legacy(), options, '2025-11-25');
    expect(methodsOf(second)).toEqual(['initialize']);
  });

  it('re-probes when a cached legacy verdict no longer holds', async () => {
    const eraCache: EraCache = new Map([['srv', 'legacy']]);
    const fake = await connectFake(modern(), { eraCache, cacheKey: 'srv' });
    expect(fake.client.era).toBe('modern');
    expect(methodsOf(fake)).toEqual(['initialize', 'server/discover']);
    expect(eraCache.get('srv')).toBe('modern');
  });

  it('sends logging/setLevel after initialize when logLevel is set and the server logs', async () => {
    const fake = await connectFake(
      legacy({ 'logging/setLevel': () => ({}) }),
      { era: 'legacy', logLevel: 'info' },
      '2025-11-25',
    );
    expect(methodsOf(fake)).toEqual(['initialize', 'logging/setLevel']);
    expect(fake.received[1]?.params).toEqual({ level: 'info' });
  });
});
