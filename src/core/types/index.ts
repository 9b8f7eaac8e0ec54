/**
 * mcpkit's types for every MCP message, modern (2026-07-28) and legacy (2025-11-25).
 * Type-only: this module has no runtime code.
 */
export type * from './base.js';
export type * from './envelopes.js';
export type * from './content.js';
export type * from './tool-definition.js';
export type * from './tools.js';
export type * from './resources.js';
export type * from './prompts.js';
export type * from './completion.js';
export type * from './client-features.js';
export type * from './patterns.js';
export type * from './notifications.js';
export type * from './legacy.js';
export type * from './legacy-features.js';
export type * from './maps.js';
export type * from './skills.js';
