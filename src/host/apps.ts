/**
 * MCP Apps through the host's one registry: each server's `ui://` resources get a front
 * URI of their own, `ui://<server>/<path>`, still `ui://` so hosts in front render them; a
 * tool's `_meta.ui.resourceUri` (and the deprecated flat key) is rewritten to match, so
 * the view stays reachable through the same front. An app-only tool keeps its server's
 * name: its app calls it by that name and no model ever sees it.
 * Source: ext-apps specification 2026-01-26 "Resource Discovery" (visibility; app scope
 * per server), "Reservations in MCP" (the `ui://` scheme).
 */
import { type Tool } from '../core/index.js';
import { FLAT_RESOURCE_URI_KEY, toolUiOf } from '../core/apps.js';

/** The front URI of `uri` (a `ui://` URI of `server`). */
export function frontUiUri(server: string, uri: string): string {
  return `ui://${server.replace(/[^A-Za-z0-9_.-]/g, '_')}/${uri.slice('ui://'.length)}`;
}

/** True for a tool only its app may call (`_meta.ui.visibility` without `"model"`). */
export function isAppOnly(tool: Tool): boolean {
  return !toolUiOf(tool).visibility.includes('model');
}

/** `tool` with its UI resource URI (both keys) rewritten to the front's; as is without one. */
export function withFrontUi(tool: Tool, server: string): Tool {
  const uri = toolUiOf(tool).resourceUri;
  const meta = tool._meta;
  if (uri === undefined || meta === undefined) return tool;
  const front = frontUiUri(server, uri);
  const ui = typeof meta.ui === 'object' && meta.ui !== null ? { ...meta.ui, resourceUri: front } : undefined;
  const flat = Object.hasOwn(meta, FLAT_RESOURCE_URI_KEY) ? { [FLAT_RESOURCE_URI_KEY]: front } : {};
  return { ...tool, _meta: { ...meta, ...(ui ? { ui } : {}), ...flat } };
}
