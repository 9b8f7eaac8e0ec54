/**
 * What the inspector app asks of the connected server beyond its views: its contract
 * snapshot in the format of `mcpkit contract snapshot` (src/contract), the report of
 * `mcpkit check` (src/check) run here in the CLI process against the same target, and a
 * recording opened from a file, read with the record format's own parser, for the History
 * view with the `mcpkit replay` command that serves it.
 */
import { createClient, type Client } from '../../client/index.js';
import type { Era } from '../../core/index.js';
import { checkServer, type CheckReport, type CheckTarget } from '../../check/index.js';
import { contractOf, surfaceOf, type ContractSurface } from '../../contract/index.js';
import { parseRecording, type RecordedMessage, type RecordingHeader } from '../record/format.js';
import { openTransport, type InspectorTarget, type TargetAuth } from './target.js';

/** Longest wait for each request of the second era's connection, in ms. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Most messages of an opened recording sent to the app (the History view keeps as many). */
const MAX_BROWSED_MESSAGES = 10_000;

/** A connection of the inspector: its client, target, and how that target is authorized. */
export interface Connection {
  client: Client;
  target: InspectorTarget;
  auth: TargetAuth;
}

/** A command line or URL for people (the check report's `target`). */
export function targetLabel(target: InspectorTarget): string {
  if (target.kind === 'http') return target.url;
  if (target.kind === 'stdio') return [target.command, ...target.args].join(' ');
  return 'the built-in everything server';
}

/**
 * The contract of the connected server as `mcpkit contract snapshot` writes it (sorted,
 * indented JSON): the connected era's surface through `client`, and the other era's through
 * a second connection to `target` (left out, as the command does, when the server does not
 * serve it).
 * @throws whatever the connected client's lists throw.
 */
export async function contractSnapshot(connection: Connection): Promise<{ text: string; leftOut: string[] }> {
  const { client, target, auth } = connection;
  const connected: Era = client.era === 'legacy' ? 'legacy' : 'modern';
  const other: Era = connected === 'modern' ? 'legacy' : 'modern';
  const surfaces: Partial<Record<Era, ContractSurface>> = { [connected]: await surfaceOf(client) };
  const leftOut: string[] = [];
  const second = createClient({
    name: 'mcpkit-contract',
    version: '1',
    era: other,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  try {
    await second.connect(openTransport(target, auth));
    surfaces[other] = await surfaceOf(second);
  } catch (error) {
    leftOut.push(`the ${other} era left out: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await second.close().catch(() => undefined);
  }
  const info = client.serverInfo;
  const identity = info ? { name: info.name, version: info.version } : { name: '' };
  return { text: JSON.stringify(contractOf(identity, surfaces), null, 2), leftOut };
}

/** The check running per connected target (one run at a time: a second ask shares it). */
const running = new WeakMap<InspectorTarget, Promise<CheckReport>>();

/**
 * Runs `mcpkit check` (both eras, default bounds) on the connection's target: a stdio
 * command is spawned once per connection as the command does; an HTTP URL gets the headers
 * the person typed and the `--token` of that URL. An OAuth login of the inspector is not
 * lent to the checker (its 401 is then checked as such). One run at a time per target.
 * @throws LocalError when nothing could be reached (see `checkServer`).
 */
export function checkConnection(connection: {
  target: InspectorTarget;
  auth: TargetAuth;
}): Promise<CheckReport> {
  const { target } = connection;
  const current = running.get(target);
  if (current) return current;
  const run = checkTarget(target, connection.auth).finally(() => running.delete(target));
  running.set(target, run);
  return run;
}

function checkTarget(target: InspectorTarget, auth: TargetAuth): Promise<CheckReport> {
  const label = targetLabel(target);
  let checked: CheckTarget;
  if (target.kind === 'http') {
    const bearer = auth.bearer?.url === target.url ? { authorization: `Bearer ${auth.bearer.token}` } : {};
    checked = { kind: 'http', label, url: target.url, headers: { ...bearer, ...target.headers } };
  } else {
    checked = { kind: 'transport', label, open: () => openTransport(target) };
  }
  return checkServer(checked, { era: 'auto' });
}

/** A recording opened for browsing. */
export interface BrowsedRecording {
  header: RecordingHeader;
  /** The first {@link MAX_BROWSED_MESSAGES} messages. */
  messages: RecordedMessage[];
  /** How many messages the file has. */
  total: number;
  /** The command lines that serve it: over stdio, and over Streamable HTTP. */
  replay: string[];
}

/** Quotes an argument for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Reads a recording's text (the record format's own parser and bounds) for the History
 * view, with the `mcpkit replay` command lines for `fileName`.
 * @throws Error naming the line that is not part of a recording.
 */
export function browseRecording(text: string, fileName: string): BrowsedRecording {
  const { header, messages } = parseRecording(text);
  const file = shellWord(fileName.split(/[\\/]/).pop() || 'session.jsonl');
  return {
    header,
    messages: messages.slice(0, MAX_BROWSED_MESSAGES),
    total: messages.length,
    replay: [`mcpkit replay ${file}`, `mcpkit replay ${file} --port 0`],
  };
}
