import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildServer, modernPost } from '../../../test/support/http-harness.js';
import { addressGroup } from './address-group.js';
import { Admission } from './admission.js';
import { addressGroup as publicAddressGroup, createHttpHandler } from './index.js';

describe('Admission options and Retry-After (hostile configuration)', () => {
  it.each([
    ['requestsPerSecond', Number.NaN],
    ['requestsPerSecond', 0],
    ['requestsPerSecond', -1],
    ['burst', Number.NaN],
    ['maxConcurrentRequests', Number.NaN],
    ['maxTracked', -5],
    ['maxKeyLength', 0],
    ['maxSessions', Number.NaN],
  ])('refuses principals.%s = %s instead of silently turning the limit off', (name, value) => {
    expect(() => new Admission({ [name]: value })).toThrow(RangeError);
  });

  it('sends Retry-After as whole seconds, at most a day, even for a tiny rate', () => {
    const admission = new Admission({ requestsPerSecond: 1e-30, burst: 1 });
    expect('release' in admission.admit('p')).toBe(true);
    const refused = admission.admit('p');
    if (!('response' in refused)) throw new Error('the second request should be refused');
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers?.['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(Number(refused.response.headers?.['retry-after'])).toBeLessThanOrEqual(86_400);
  });
});

const echo = () => modernPost('tools/call', { name: 'echo', arguments: { text: 'x' } });

async function statusOf(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}

function admitted(admission: Admission, principal: string): boolean {
  const outcome = admission.admit(principal);
  if ('release' in outcome) outcome.release();
  return 'release' in outcome;
}

describe('address principals (hostile: one holder of many addresses)', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:207', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::9%eth0', '2001:db8:1:2::/64'],
    ['[2001:db8::1]', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['1::2::3', '1::2::3'],
    ['not an address', 'not an address'],
    // Forwarded spellings (X-Forwarded-For, RFC 7239 for=) of one client give one group.
    [' 192.0.2.7 ', '192.0.2.7'],
    ['192.0.2.7:4711', '192.0.2.7'],
    ['"192.0.2.7:4711"', '192.0.2.7'],
    ['for=192.0.2.7', '192.0.2.7'],
    ['[2001:db8:1:2::1]:1000', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]:1001', '2001:db8:1:2::/64'],
    ['For="[2001:db8:1:2::9]:_gazonk"', '2001:db8:1:2::/64'],
    ['"[::ffff:192.0.2.7]:80"', '192.0.2.7'],
    ['"_hidden"', '_hidden'],
    [' unknown', 'unknown'],
  ])('groups %s as %s', (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it('gives every address of one IPv6 /64 one budget, and another /64 its own', async () => {
    const handler = createHttpHandler(buildServer(), { principals: { requestsPerSecond: 0.001, burst: 2 } });
    try {
      const statuses = [];
      for (let i = 1; i <= 5; i++)
        statuses.push(
          await handler(echo(), { remoteAddress: `2001:db8:7:7::${i.toString(16)}` }).then(statusOf),
        );
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
      expect(await handler(echo(), { remoteAddress: '2001:db8:7:8::1' }).then(statusOf)).toBe(200);
      expect(await handler(echo(), { remoteAddress: '::ffff:198.51.100.1' }).then(statusOf)).toBe(200);
      expect(await handler(echo(), { remoteAddress: '198.51.100.1' }).then(statusOf)).toBe(200);
      expect(await handler(echo(), { remoteAddress: '198.51.100.1' }).then(statusOf)).toBe(429);
    } finally {
      handler.close();
    }
  });
});

describe('an address read from a forwarded header', () => {
  it('groups like the default with the exported addressGroup', async () => {
    const handler = createHttpHandler(buildServer(), {
      principals: {
        requestsPerSecond: 0.001,
        burst: 1,
        principal: (r) => `fwd:${publicAddressGroup(r.headers.get('x-real-ip') ?? '')}`,
      },
    });
    try {
      const from = (ip: string) =>
        handler(modernPost('tools/call', { name: 'echo', arguments: { text: 'x' } }, { 'x-real-ip': ip }));
      expect(await from('2001:db8:9:9::1').then(statusOf)).toBe(200);
      expect(await from('2001:db8:9:9:ffff::2').then(statusOf)).toBe(429);
      expect(await from('2001:db8:9:a::1').then(statusOf)).toBe(200);
    } finally {
      handler.close();
    }
  });
});

describe('a full principal table (hostile: a flood of fresh keys)', () => {
  afterEach(() => void vi.useRealTimers());

  it('does not hand a spent principal a fresh budget by pushing it out with new keys', () => {
    const admission = new Admission({ requestsPerSecond: 0.001, burst: 1, maxTracked: 4 });
    const keys = Array.from({ length: 8 }, (_, i) => `addr:203.0.113.${i}`);
    let admittedCount = 0;
    for (let round = 0; round < 3; round++)
      for (const key of keys) if (admitted(admission, key)) admittedCount++;
    // 4 tracked principals, plus 1 for the overflow budget the untracked ones share.
    expect(admittedCount).toBe(5);
  });

  it('keeps a tracked principal’s budget through the flood, and forgets only refilled idle ones', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const admission = new Admission({ requestsPerSecond: 1, burst: 2, maxTracked: 3 });
    expect(admitted(admission, 'victim')).toBe(true);
    for (let i = 0; i < 20; i++) admitted(admission, `flood-${i}`);
    expect(admitted(admission, 'victim')).toBe(true);
    expect(admitted(admission, 'victim')).toBe(false);
    expect(admitted(admission, 'newcomer')).toBe(false); // shares the spent overflow budget
    vi.advanceTimersByTime(2_000); // every bucket full again: their entries may be forgotten
    expect(admitted(admission, 'newcomer')).toBe(true);
    expect(admitted(admission, 'newcomer')).toBe(true);
    expect(admitted(admission, 'newcomer')).toBe(false); // its own budget of 2, not a fresh one per request
  });

  it('gives principals beyond the table one shared concurrency bound while every tracked one is busy', () => {
    const admission = new Admission({ maxConcurrentRequests: 1, maxQueuedRequests: 0, maxTracked: 2 });
    const held = ['a', 'b'].map((key) => admission.admit(key));
    expect(held.every((h) => 'release' in h)).toBe(true);
    const c = admission.admit('c');
    expect('release' in c).toBe(true);
    expect('response' in admission.admit('d')).toBe(true);
    for (const h of [...held, c]) if ('release' in h) h.release();
    expect('release' in admission.admit('d')).toBe(true);
  });
});

describe('principal key length (hostile: a huge forwarded header)', () => {
  it('refuses a principal longer than principals.maxKeyLength with 400 naming it, before the body is read', async () => {
    const handler = createHttpHandler(buildServer(), {
      principals: { principal: (r) => r.headers.get('x-forwarded-for') ?? undefined, maxKeyLength: 64 },
    });
    try {
      const long = await handler(
        modernPost(
          'tools/call',
          { name: 'echo', arguments: { text: 'x' } },
          { 'x-forwarded-for': 'a'.repeat(65) },
        ),
      );
      expect(long.status).toBe(400);
      expect(await long.json()).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('principals.maxKeyLength') },
      });
      const fine = await handler(
        modernPost(
          'tools/call',
          { name: 'echo', arguments: { text: 'x' } },
          { 'x-forwarded-for': 'a'.repeat(64) },
        ),
      );
      expect(fine.status).toBe(200);
      await fine.body?.cancel();
    } finally {
      handler.close();
    }
  });

  it('refuses an over-long principal by default (512) also on the failed-authentication path', () => {
    const admission = new Admission();
    expect(admission.spent('k'.repeat(513))?.status).toBe(400);
    const outcome = admission.admit('k'.repeat(513));
    expect('response' in outcome && outcome.response.status).toBe(400);
    expect('release' in admission.admit('k'.repeat(512))).toBe(true);
  });
});
