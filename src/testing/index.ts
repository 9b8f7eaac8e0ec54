/**
 * `mcpkit/testing`: in-memory fakes and wire checks for tests of MCP servers and clients.
 */
export { createLinkedPair } from './linked-pair.js';
export { assertWireValid, wireValidator, type WireRevision } from './wire-schema.js';
export { validateWire } from './wire-tap.js';
export { checkServer, type CheckOptions, type CheckTarget } from './check/check.js';
export { expectServerConforms, type ConformsOptions } from './check/expect.js';
export { failsAt, SEVERITIES, type CheckReport, type Finding, type Severity } from './check/report.js';
export { RULES } from './check/rules/index.js';
export type { Hit, Rule, Section } from './check/rules/kit.js';
export type { SafeCall } from './check/collect.js';
export type { FetchLike } from './check/http-channel.js';
export type * from './check/observations.js';
export {
  contractOf,
  serverContract,
  surfaceOf,
  type Contract,
  type ContractSurface,
} from './contract/snapshot.js';
export { atLeast, diffContracts, type ChangeLevel, type ContractChange } from './contract/diff.js';
export { contractMatchers, formatContractChanges, type ContractMatchOptions } from './contract/report.js';
