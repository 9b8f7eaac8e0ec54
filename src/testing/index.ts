/**
 * `mcpkit/testing`: in-memory fakes and wire checks for tests of MCP servers and clients,
 * with the server checker (`src/check`) and contract snapshots and diff (`src/contract`),
 * which live in folders of their own and are public through this entry.
 */
export { createLinkedPair } from './linked-pair.js';
export { assertWireValid, wireValidator, type WireRevision } from './wire-schema.js';
export { validateWire } from './wire-tap.js';
export { checkServer, expectServerConforms, failsAt, RULES, SEVERITIES } from '../check/index.js';
export type * from '../check/index.js';
export {
  atLeast,
  contractMatchers,
  contractOf,
  diffContracts,
  formatContractChanges,
  serverContract,
  surfaceOf,
} from '../contract/index.js';
export type * from '../contract/index.js';
