/** A node request's headers through the endpoint's {@link HeaderReader}. */
import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderReader } from '../../server/http/index.js';

/**
 * Reads node's already-parsed header object (lowercase names). A repeated header's values
 * are joined with `, `, as `Headers.get` does.
 */
export class NodeHeaders implements HeaderReader {
  readonly #raw: IncomingHttpHeaders;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name] ?? this.#raw[name.toLowerCase()]; // callers mostly pass lower case
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name in this.#raw) {
      const value = this.#raw[name];
      if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
    }
  }
}
