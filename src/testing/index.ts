/**
 * `mcpkit/testing`: in-memory fakes and wire checks for tests of MCP servers and clients.
 */
export { createLinkedPair } from './linked-pair.js';
export { assertWireValid, wireValidator, type WireRevision } from './wire-schema.js';
export { validateWire } from './wire-tap.js';
export {
  contractOf,
  serverContract,
  surfaceOf,
  type Contract,
  type ContractSurface,
} from './contract/snapshot.js';
export { atLeast, diffContracts, type ChangeLevel, type ContractChange } from './contract/diff.js';
export { contractMatchers, formatContractChanges, type ContractMatchOptions } from './contract/report.js';
