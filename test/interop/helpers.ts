/**
 * Support for the interop tests: where the servers under test live, a transport tap that
 * keeps every frame, and the schema check of the frames mcpkit emitted (STYLE.md rule 12).
 * Every server runs as a real child process over stdio; nothing touches the network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Transport } from '../../src/core/transport.js';
import { wireValidator, type WireRevision } from '../../src/testing/index.js';

/** The package root: the nearest folder above this file holding `package.json`. */
const ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('interop helpers: no package.json above this file');
    dir = parent;
  }
  return dir;
})();

/** The compiled stdio entry of our everything server (built by the vitest global setup). */
export const OUR_EVERYTHING = join(ROOT, 'dist', 'servers', 'everything', 'main.js');

/** The official reference servers installed as dev dependencies. */
export type ReferenceServer = 'server-filesystem' | 'server-everything' | 'server-memory';

/**
 * The JS entry of a reference server: the file its package.json `bin` names, resolved from
 * this package's node_modules, so it runs as `node <entry>` without npx.
 */
export function referenceEntry(name: ReferenceServer): string {
  const require = createRequire(join(ROOT, 'package.json'));
  const manifestPath = require.resolve(`@modelcontextprotocol/${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`@modelcontextprotocol/${name} declares no bin`);
  return join(dirname(manifestPath), bin);
}

/** One JSON-RPC message seen on a tapped transport: `out` was sent by the client. */
export interface Frame {
  direction: 'in' | 'out';
  message: Record<string, unknown>;
}

/** Wraps `transport` so every frame in either direction is recorded in `frames`. */
export function tap(transport: Transport): Transport & { frames: Frame[] } {
  const frames: Frame[] = [];
  const record = (direction: Frame['direction'], message: unknown): void => {
    for (const m of Array.isArray(message) ? message : [message]) {
      frames.push({ direction, message: JSON.parse(JSON.stringify(m)) as Record<string, unknown> });
    }
  };
  return {
    frames,
    ...(transport.binding === undefined ? {} : { binding: transport.binding }),
    start: (sink) =>
      transport.start({
        frame: (text) => {
          try {
            record('in', JSON.parse(text));
          } catch {
            // not JSON: the client answers it itself
          }
          sink.frame(text);
        },
        ...(sink.inputEnded === undefined ? {} : { inputEnded: () => sink.inputEnded?.() }),
        closed: (error) => sink.closed(error),
      }),
    send: (message, options) => {
      record('out', message);
      transport.send(message, options);
    },
    close: () => transport.close(),
  };
}

/**
 * Schema violations among `frames` for `revision`, one line per invalid frame, checking
 * only the given directions. The era probe (`server/discover` and the answer to it) is
 * skipped when checking a legacy revision: it is modern by design.
 */
export function wireViolations(
  frames: readonly Frame[],
  revision: WireRevision,
  directions: readonly Frame['direction'][],
): string[] {
  const validate = wireValidator(revision);
  const probeIds = new Set(
    frames.filter((f) => f.message.method === 'server/discover').map((f) => f.message.id),
  );
  const isProbe = (m: Record<string, unknown>): boolean =>
    m.method === 'server/discover' || (m.method === undefined && probeIds.has(m.id));
  return frames
    .filter((f) => directions.includes(f.direction))
    .filter((f) => revision === '2026-07-28' || !isProbe(f.message))
    .flatMap((f) => {
      const errors = validate(f.message);
      return errors.length === 0 ? [] : [`${f.direction} ${JSON.stringify(f.message)}: ${errors.join('; ')}`];
    });
}

/** The text items of a result's `content`, in order. */
export function texts(result: { content?: unknown }): string[] {
  const content = Array.isArray(result.content)
    ? (result.content as { type?: unknown; text?: unknown }[])
    : [];
  return content.filter((c) => c.type === 'text').map((c) => String(c.text));
}

/** The one text item of a result, failing when there is not exactly one. */
export function onlyText(result: { content?: unknown }): string {
  const all = texts(result);
  if (all.length !== 1) throw new Error(`expected one text item, got ${JSON.stringify(result.content)}`);
  return all[0] as string;
}

/**
 * Records every message an official SDK transport (v1 or v2) hands to its client, by
 * intercepting the `onmessage` property the client assigns. The transport keeps its class,
 * so SDK behaviour that depends on it (the v2 stdio probe on a sibling process) is unchanged.
 */
export function observeIncoming(transport: object): Record<string, unknown>[] {
  const seen: Record<string, unknown>[] = [];
  type Handler = (message: unknown, extra?: unknown) => void;
  let handler: Handler | undefined;
  const observed: Handler = (message, extra) => {
    seen.push(JSON.parse(JSON.stringify(message)) as Record<string, unknown>);
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : observed),
    set: (next: Handler | undefined) => {
      handler = next;
    },
  });
  return seen;
}
