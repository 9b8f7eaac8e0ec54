import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startInspector, type Inspector } from './server.js';

function post(url: URL, path: string, headers: Record<string, string>, body?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path, method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('inspector API token check', () => {
  let inspector: Inspector | undefined;
  afterEach(async () => {
    await inspector?.close();
  });

  it('refuses a token of the right length in characters but not in bytes, and keeps serving', async () => {
    inspector = await startInspector({});
    const url = new URL(inspector.url);
    const token = url.searchParams.get('token') ?? '';
    const wide = encodeURIComponent('é'.repeat(token.length));
    expect(await post(url, `/api/state?token=${wide}`, { host: url.host })).toBe(403);
    expect(await post(url, '/api/state', { host: url.host, 'x-mcpkit-token': token })).toBe(200);
  });

  it('answers an API body over 1 MiB with 413 rather than a reset, and keeps serving', async () => {
    inspector = await startInspector({});
    const url = new URL(inspector.url);
    const headers = { host: url.host, 'x-mcpkit-token': url.searchParams.get('token') ?? '' };
    expect(await post(url, '/api/state', headers, Buffer.alloc(5 * 1024 * 1024, 0x20))).toBe(413);
    expect(await post(url, '/api/state', headers)).toBe(200);
  });
});
