/**
 * Wraps a transport so every message it sends or receives is checked against the
 * official JSON Schema of a protocol revision (STYLE.md rule 12: the spec is the oracle).
 */
import type { Transport } from '../core/index.js';
import { assertWireValid, type WireRevision } from './wire-schema.js';

/**
 * Returns a transport that behaves like `transport` but throws (from `send`) or records
 * (on receipt) any message that is not valid for `revision`. Invalid received frames are
 * pushed to `violations` so a test can assert it stays empty; malformed JSON is passed through.
 */
export function validateWire(
  transport: Transport,
  revision: WireRevision,
  violations: string[] = [],
): Transport & { violations: string[] } {
  const check = (message: unknown): void => {
    const list = Array.isArray(message) ? message : [message];
    for (const m of list) {
      try {
        assertWireValid(m, revision);
      } catch (error) {
        violations.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  return {
    violations,
    start: (sink) =>
      transport.start({
        frame: (text, related) => {
          try {
            check(JSON.parse(text));
          } catch {
            // not JSON: the receiving peer answers it with -32700
          }
          sink.frame(text, related);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (message, options) => {
      check(message);
      transport.send(message, options);
    },
    close: () => transport.close(),
  };
}
