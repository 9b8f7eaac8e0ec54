/**
 * Contract snapshots and their diff (`serverContract`, `diffContracts`, the vitest matchers),
 * a product of its own beside the in-memory fakes. Users reach it through `mcpkit/testing`
 * (`src/testing/index.ts`) and the CLI's `mcpkit contract`; this file is the folder's face
 * for them, so nothing outside imports a file inside.
 */
export { contractOf, serverContract, surfaceOf, type Contract, type ContractSurface } from './snapshot.js';
export { atLeast, diffContracts, type ChangeLevel, type ContractChange } from './diff.js';
export { contractMatchers, formatContractChanges, type ContractMatchOptions } from './report.js';
