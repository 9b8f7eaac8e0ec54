/**
 * The fetch server's network rules: no private, loopback, link-local or other non-public
 * address unless --allow-private-network (literal, resolved name, every redirect hop), http(s)
 * only, and a page's size, time and redirects bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEra, textOf } from '../../test/support/era-client.js';
import { startWebSite, type WebSite } from '../../test/support/web-site.js';
import { isPublicAddress } from '../../src/auth/runtime.js';
import { createGetter, MAX_REDIRECTS } from './network.js';
import { createReferenceServer } from './server.js';

let site: WebSite;
let port: string;
beforeAll(async () => {
  site = await startWebSite({
    '/plain': { headers: { 'content-type': 'text/plain' }, body: 'local only' },
    '/big': { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(50_000) },
    '/hang': { hang: true },
    '/loop': { status: 302, headers: { location: '/loop' } },
    '/to-loopback': { status: 302, headers: { location: 'http://127.0.0.2:9/plain' } },
    '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
  });
  port = new URL(site.origin).port;
});
afterAll(() => site.close());

describe('which addresses are public', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::808:808', true],
    ['64:ff9b::a9fe:a9fe', false],
    ['::ffff:8.8.8.8', false],
    ['2001:db8::1', false],
    ['2002:808:808::1', false],
    ['fe80::1%eth0', false],
    ['169.254.169.254', false],
    ['0177.0.0.1', false],
    ['FD00::1', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('fetch server without --allow-private-network', () => {
  it('refuses loopback and private targets, literal or by name, before connecting', async () => {
    const client = await openEra(await createReferenceServer([], {}), 'modern');
    const seen = site.requests.length;
    try {
      for (const url of [
        `http://127.0.0.1:${port}/plain`,
        `http://localhost:${port}/plain`,
        `http://[::1]:${port}/plain`,
        `http://[::ffff:127.0.0.1]:${port}/plain`,
        `http://0x7f.1:${port}/plain`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
      ]) {
        const result = await client.call('fetch', { url });
        expect(result.isError, url).toBe(true);
        expect(textOf(result), url).toMatch(
          /non-public address; the server refuses it unless started with --allow-private-network$/,
        );
      }
      expect(site.requests.length).toBe(seen);
    } finally {
      await client.close();
    }
  });
});

describe('the page getter', () => {
  const onlyThisHost = (address: string) => address === '127.0.0.1';

  it('checks every redirect hop by the same rules', async () => {
    const get = await createGetter({ allowPrivate: false, isPublic: onlyThisHost });
    expect((await get(`${site.origin}/plain`, { userAgent: 'test' })).text).toBe('local only');
    await expect(get(`${site.origin}/to-loopback`, { userAgent: 'test' })).rejects.toThrow(
      /127\.0\.0\.2 is a private, loopback or otherwise non-public address/,
    );
    await expect(get(`${site.origin}/to-file`, { userAgent: 'test' })).rejects.toThrow(
      'only http and https URLs can be fetched, not file:',
    );
  });

  it(`stops after ${MAX_REDIRECTS} redirects`, async () => {
    const get = await createGetter({ allowPrivate: true });
    await expect(get(`${site.origin}/loop`, { userAgent: 'test' })).rejects.toThrow(
      'Exceeded maximum allowed redirects.',
    );
  });

  it('reads at most maxBytes of a page and says it cut it', async () => {
    const get = await createGetter({ allowPrivate: true, maxBytes: 1000 });
    const page = await get(`${site.origin}/big`, { userAgent: 'test' });
    expect(page).toMatchObject({ status: 200, truncated: true });
    expect(page.text).toHaveLength(1000);
  });

  it('gives up on a page that takes longer than timeoutMs', async () => {
    const get = await createGetter({ allowPrivate: true, timeoutMs: 200 });
    await expect(get(`${site.origin}/hang`, { userAgent: 'test' })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('stops downloading when the call is cancelled', async () => {
    const get = await createGetter({ allowPrivate: true });
    const controller = new AbortController();
    const pending = get(`${site.origin}/hang`, { userAgent: 'test', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeDefined();
  });
});
