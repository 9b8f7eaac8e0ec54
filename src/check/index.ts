/**
 * The server checker (`checkServer`, `expectServerConforms`, the rules and their report),
 * a product of its own beside the in-memory fakes. Users reach it through `mcpkit/testing`
 * (`src/testing/index.ts`) and the CLI's `mcpkit check`; this file is the folder's face
 * for them, so nothing outside imports a file inside.
 */
export { checkServer, type CheckOptions, type CheckTarget } from './check.js';
export { expectServerConforms, type ConformsOptions } from './expect.js';
export { failsAt, SEVERITIES, type CheckReport, type Finding, type Severity } from './report.js';
export { RULES } from './rules/index.js';
export type { Hit, Rule, Section } from './rules/kit.js';
export type { SafeCall } from './collect.js';
export type { FetchLike } from './http-channel.js';
export type * from './observations.js';
