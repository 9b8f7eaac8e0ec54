/**
 * Recognises a modern server whose tool could not ask for input because it does so only
 * with server-initiated requests, which 2026-07-28 does not have (server/utilities: input
 * goes through `input_required` instead). Python's `mcp` SDK and FastMCP behave so by
 * design; pinned to the legacy era, the same server works (mcpkit bridges its questions).
 */
import { WireError, type Params } from '../core/index.js';

/** Longest text looked at: the phrases sit at the start of such errors. */
const SCAN_CHARS = 500;
const SERVER_INITIATED = /server-initiated requests?/i;
const REFUSED = /unavailable|no back-channel|not (?:supported|available)/i;

function saysLegacyOnly(text: string): boolean {
  const head = text.slice(0, SCAN_CHARS);
  return SERVER_INITIATED.test(head) && REFUSED.test(head);
}

function textOf(result: Params): string {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const first = content.find(
    (c): c is { text: string } => typeof (c as { text?: unknown })?.text === 'string',
  );
  return first?.text ?? '';
}

/**
 * The warning for a `tools/call` outcome (an `isError` result or a WireError) that shows
 * the tool needs server-initiated requests; undefined for any other outcome.
 */
export function legacyOnlyInputWarning(tool: string, outcome: Params | unknown): string | undefined {
  let said: string;
  if (outcome instanceof WireError) said = outcome.message;
  else if (typeof outcome === 'object' && outcome !== null && (outcome as Params).isError === true) {
    said = textOf(outcome as Params);
  } else return undefined;
  if (!saysLegacyOnly(said)) return undefined;
  return (
    `tool '${tool}' needs to ask for input with server-initiated requests, which this server ` +
    `supports only on legacy (2025-11-25) sessions ("${said.slice(0, 120).trim()}"): connect with ` +
    `era 'legacy' (CLI --era legacy; host or gateway: "era": "legacy" in the server's mcpServers entry), ` +
    `and mcpkit relays its questions to modern clients too`
  );
}
