/**
 * The fakes' face for their siblings `src/check` and `src/contract`. Those two cannot import
 * `index.ts`: `mcpkit/testing` re-exports them, so that import would be a cycle. Holds what
 * they use and nothing else; not a public entry.
 */
export { createLinkedPair } from './linked-pair.js';
export { officialSchemaAjv, type WireRevision } from './wire-schema.js';
