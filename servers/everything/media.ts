/**
 * Tiny real media files the fixtures return, base64-encoded.
 */

/** A 1×1 PNG image (image/png). */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A 2 ms WAV clip: PCM, mono, 8 kHz, 8-bit, 16 samples of a sine wave (audio/wav). */
export const WAV_BASE64 = 'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAqryqgFZEVoCqvKqAVkRW';

/** The PNG as a data URI, for icons. */
export const PNG_DATA_URI = `data:image/png;base64,${PNG_BASE64}`;

/** Resolves after `ms` milliseconds, or rejects early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
