/**
 * What the client declares: capabilities for each era, derived from the declared ones and
 * the handlers, and the per-request `_meta` of a modern request.
 * Source: 2026-07-28 basic/index "_meta" (per-request protocol fields); 2025-11-25
 * basic/lifecycle "Capability Negotiation".
 */
import {
  type Params,
  META,
  type ClientCapabilities,
  type Implementation,
  type LegacyClientCapabilities,
  type LoggingLevel,
} from '../core/index.js';
import type { ClientOptions } from './options.js';

/** The capabilities of both eras, computed once per client. */
export interface DeclaredCapabilities {
  /** Sent in every modern request's `_meta` (`roots` is a bare object there). */
  readonly modern: ClientCapabilities;
  /** Sent in `initialize` (`roots.listChanged` is set when a roots handler exists). */
  readonly legacy: LegacyClientCapabilities;
}

type ElicitationCapability = NonNullable<ClientCapabilities['elicitation']>;

/** Derives the declared capabilities: the options' own, plus one per handler supplied. */
export function declareCapabilities(options: ClientOptions): DeclaredCapabilities {
  const modern: ClientCapabilities = { ...options.capabilities };
  const handlers = options.handlers ?? {};
  if (handlers.sampling) modern.sampling = { ...modern.sampling };
  if (handlers.elicitation) modern.elicitation = elicitationCapability(options.elicitationModes);
  if (handlers.roots) modern.roots = { ...modern.roots };
  const { extensions: _modernOnly, roots, ...shared } = modern;
  const legacy: LegacyClientCapabilities = { ...shared };
  if (roots) legacy.roots = handlers.roots ? { listChanged: true } : {};
  for (const extension of options.extensions ?? []) {
    if (extension.advertise === 'on-use') continue;
    const eras = extension.eras ?? ['modern', 'legacy'];
    const settings = { ...extension.settings } as never;
    if (eras.includes('modern')) modern.extensions = { ...modern.extensions, [extension.id]: settings };
    if (eras.includes('legacy')) legacy.extensions = { ...legacy.extensions, [extension.id]: settings };
  }
  return { modern, legacy };
}

function elicitationCapability(modes: readonly ('form' | 'url')[] = ['form']): ElicitationCapability {
  const capability: ElicitationCapability = {};
  if (modes.includes('form')) capability.form = {};
  if (modes.includes('url')) capability.url = {};
  return capability;
}

/** The fields a modern request's `_meta` carries (basic/index "Per-request protocol fields"). */
export interface ModernMetaFields {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  logLevel?: LoggingLevel | undefined;
}

/**
 * Returns `params` with the modern per-request fields merged into its `_meta`. Fields the
 * caller put in `_meta` (e.g. `traceparent`) are kept; the protocol fields win on conflict.
 */
export function withModernMeta(params: Params | undefined, fields: ModernMetaFields): Params {
  const callerMeta = (params?._meta ?? {}) as Params;
  const meta: Params = {
    ...callerMeta,
    [META.protocolVersion]: fields.protocolVersion,
    [META.clientCapabilities]: fields.capabilities,
    [META.clientInfo]: fields.clientInfo,
  };
  if (fields.logLevel !== undefined) meta[META.logLevel] = fields.logLevel;
  return { ...params, _meta: meta };
}

/** The capabilities one request declares: `declared` plus that request's `extensions`. */
export function requestCapabilities(
  declared: ClientCapabilities,
  extensions: Record<string, Params> | undefined,
): ClientCapabilities {
  if (!extensions) return declared;
  return {
    ...declared,
    extensions: { ...declared.extensions, ...(extensions as ClientCapabilities['extensions']) },
  };
}

/** The `clientInfo` of the options. */
export function clientInfoOf(options: ClientOptions): Implementation {
  const info: Implementation = { name: options.name, version: options.version };
  if (options.title !== undefined) info.title = options.title;
  return info;
}
