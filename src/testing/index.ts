/**
 * `mcpkit/testing`: in-memory fakes and wire checks for tests of MCP servers and clients.
 */
export { createLinkedPair } from './linked-pair.js';
export { assertWireValid, wireValidator, type WireRevision } from './wire-schema.js';
export { validateWire } from './wire-tap.js';
