import { describe, expect, it } from 'vitest';
import { readJson } from './discovery.js';

/** A body of `total` bytes of `[` in 64 KiB chunks, without a content-length; counts what was read. */
function endlessBody(total: number): { response: Response; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill('['.charCodeAt(0));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { response: new Response(body), pulled: () => pulled };
}

describe('readJson (metadata documents from a peer)', () => {
  it('stops reading a chunked body once it passes the limit instead of buffering it all', async () => {
    const { response, pulled } = endlessBody(64 * 1024 * 1024);
    expect(await readJson(response)).toBeUndefined();
    expect(pulled()).toBeLessThan(1024 * 1024);
  });

  it('still reads a small JSON object', async () => {
    expect(await readJson(new Response('{"issuer":"https://as.example"}'))).toEqual({
      issuer: 'https://as.example',
    });
  });
});
