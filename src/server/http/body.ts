/**
 * Reading a POST body with a size limit, without trusting `Content-Length`.
 * Source: DESIGN.md decision 9 (request size limits).
 */

/** Default {@link readBody} limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as text, or `too-large` once more than `maxBytes` bytes arrived (reading stops). */
export type BodyResult = { kind: 'text'; text: string } | { kind: 'too-large' };

/**
 * Reads the body of `request` as UTF-8 text, at most `maxBytes` bytes. A declared
 * `Content-Length` above the limit is refused before reading.
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { kind: 'too-large' };
  if (!request.body) return { kind: 'text', text: '' };
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const pieces: string[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { kind: 'too-large' };
    }
    pieces.push(decoder.decode(value, { stream: true }));
  }
  pieces.push(decoder.decode());
  return { kind: 'text', text: pieces.join('') };
}
