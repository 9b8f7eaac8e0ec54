/**
 * `mcpkit/apps`: MCP Apps (`io.modelcontextprotocol/ui`), the wire names and the pure rules
 * both sides share — what a tool's `_meta.ui` says, whether a client negotiated the
 * extension, and the Content-Security-Policy a host builds from a UI resource's declared domains.
 * Source: ext-apps specification 2026-01-26 (Stable) "UI Resource Format", "Resource
 * Discovery", "Client<>Server Capability Negotiation", "Security Implications" 4; the
 * draft's "Metadata Location" (list entry and content item, the content item wins).
 */
import { isObject } from './jsonrpc.js';

/** The extension identifier, the key under `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The deprecated flat tool `_meta` key for the UI resource URI (servers still send it). */
export const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The revision of the app ↔ host protocol (`ui/initialize`) this implementation speaks. */
export const APP_PROTOCOL_VERSION = '2026-01-26';

/** Who may use a tool: the model (agent), the app of the same server, or both. */
export type AppVisibility = 'model' | 'app';

/** A tool's `_meta.ui`, read leniently: the UI resource (if any) and who may call it. */
export interface ToolUi {
  /** The `ui://` URI of the tool's view; `_meta.ui.resourceUri`, else the deprecated flat key. */
  resourceUri?: string;
  /** `_meta.ui.visibility`; `["model", "app"]` when absent or malformed. */
  visibility: AppVisibility[];
}

/** Origins a UI resource declares, by what they are for (`_meta.ui.csp`). */
export interface AppCsp {
  /** fetch/XHR/WebSocket origins (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, images, styles, fonts, media (`script-src`, `img-src`, …). */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Document base URIs (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser permissions a UI resource asks for (`_meta.ui.permissions`), each an empty object. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A UI resource's `_meta.ui`: security and rendering settings for the host. */
export interface AppResourceUi {
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A dedicated sandbox origin; its format is the host's to define. */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
}

const BOTH: AppVisibility[] = ['model', 'app'];

/** Reads a tool's `_meta.ui` (and the flat key); never throws on a peer's malformed value. */
export function toolUiOf(tool: { _meta?: unknown }): ToolUi {
  const meta = isObject(tool._meta) ? tool._meta : {};
  const ui = Object.hasOwn(meta, 'ui') && isObject(meta.ui) ? meta.ui : {};
  const nested = typeof ui.resourceUri === 'string' ? ui.resourceUri : undefined;
  const flat = Object.hasOwn(meta, FLAT_RESOURCE_URI_KEY) ? meta[FLAT_RESOURCE_URI_KEY] : undefined;
  const resourceUri = nested ?? (typeof flat === 'string' ? flat : undefined);
  const given = Array.isArray(ui.visibility) ? ui.visibility : undefined;
  const visibility = given?.every((v) => v === 'model' || v === 'app')
    ? [...new Set(given as AppVisibility[])]
    : BOTH;
  return { ...(resourceUri?.startsWith('ui://') ? { resourceUri } : {}), visibility };
}

/**
 * Whether the client's capabilities negotiate MCP Apps: the extension's settings carry a
 * `mimeTypes` array that includes {@link APP_MIME_TYPE}.
 */
export function negotiatesUi(capabilities: unknown): boolean {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  if (!isObject(extensions) || !Object.hasOwn(extensions, UI_EXTENSION)) return false;
  const settings = extensions[UI_EXTENSION];
  return (
    isObject(settings) && Array.isArray(settings.mimeTypes) && settings.mimeTypes.includes(APP_MIME_TYPE)
  );
}

/**
 * What a host's client advertises to negotiate MCP Apps (`createClient({ extensions:
 * [uiClientExtension()] })`): the identifier and the settings `{ mimeTypes: [APP_MIME_TYPE] }`.
 */
export function uiClientExtension(): { id: string; settings: { mimeTypes: string[] } } {
  return { id: UI_EXTENSION, settings: { mimeTypes: [APP_MIME_TYPE] } };
}

// A CSP source a server may declare: a scheme and host (subdomain wildcard allowed), an optional port.
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
const MAX_SOURCES = 32;

/** The declared sources that are plain origins (at most 32); anything else is dropped, never widened. */
function sources(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((s): s is string => typeof s === 'string' && SOURCE.test(s)).slice(0, MAX_SOURCES);
}

/**
 * The policy for a view: the spec's restrictive default, widened only by origins the
 * resource declared (deny by default: a malformed entry is left out). Semicolon-separated,
 * ready for a `Content-Security-Policy` header.
 */
export function appCspHeader(csp: unknown): string {
  const c = isObject(csp) ? csp : {};
  const res = sources(c.resourceDomains).join(' ');
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(' ');
  const frames = sources(c.frameDomains);
  const bases = sources(c.baseUriDomains);
  const connect = sources(c.connectDomains);
  return [
    "default-src 'none'",
    join("script-src 'self' 'unsafe-inline'", res),
    join("style-src 'self' 'unsafe-inline'", res),
    join("img-src 'self' data:", res),
    join("font-src 'self'", res),
    join("media-src 'self' data:", res),
    connect.length > 0 ? `connect-src ${connect.join(' ')}` : "connect-src 'none'",
    frames.length > 0 ? `frame-src ${frames.join(' ')}` : "frame-src 'none'",
    "object-src 'none'",
    bases.length > 0 ? `base-uri ${bases.join(' ')}` : "base-uri 'self'",
  ].join('; ');
}

const FEATURES: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The iframe `allow` attribute for the permissions a resource asked for ('' for none). */
export function appAllowAttribute(permissions: unknown): string {
  const p = isObject(permissions) ? permissions : {};
  return Object.keys(FEATURES)
    .filter((key) => Object.hasOwn(p, key) && isObject(p[key]))
    .map((key) => FEATURES[key])
    .join('; ');
}
