/**
 * A raw client for the reference servers' tests: one server, opened on either era over the
 * in-memory linked pair, every frame validated against the official schema of the revision
 * (through the everything server's harness). `call` and `list` hide the era's envelope.
 */
import type { Params } from '../../src/core/jsonrpc.js';
import type { McpServer } from '../../src/server/index.js';
import { modernRequest, openHarness, openLegacy, type Harness } from './everything.js';

/** The two eras a reference server is tested on. */
export const ERAS = ['modern', 'legacy'] as const;
/** One of {@link ERAS}. */
export type EraName = (typeof ERAS)[number];

/** A tool result as the tests read it. */
export interface CallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A client of one server on one era. */
export interface EraClient {
  readonly harness: Harness;
  /** `tools/list` (first page only: the reference servers have few tools). */
  listTools(): Promise<Record<string, unknown>[]>;
  /** `tools/call`; `progressToken` asks for progress notifications. */
  call(name: string, args: Params, progressToken?: string): Promise<CallResult>;
  /** Any other request, with the era's envelope. */
  request(method: string, params?: Params): Promise<Params>;
  close(): Promise<void>;
}

/** Opens `server` on `era`. */
export async function openEra(server: McpServer, era: EraName): Promise<EraClient> {
  const harness = era === 'modern' ? await openHarness(server, '2026-07-28') : await openLegacy(server);
  const request = (method: string, params: Params = {}): Promise<Params> =>
    era === 'modern' ? modernRequest(harness, method, params) : harness.peer.request(method, params);
  return {
    harness,
    request,
    listTools: async () => (await request('tools/list')).tools as Record<string, unknown>[],
    call: async (name, args, progressToken) => {
      const params: Params = { name, arguments: args };
      if (progressToken !== undefined && era === 'legacy') params._meta = { progressToken };
      if (progressToken !== undefined && era === 'modern')
        return (await modernRequest(harness, 'tools/call', params, {
          meta: { progressToken },
        })) as unknown as CallResult;
      return (await request('tools/call', params)) as unknown as CallResult;
    },
    close: () => harness.close(),
  };
}

/** The text of a result's only content item. */
export function textOf(result: CallResult): string {
  if (result.content.length !== 1) throw new Error(`expected one item: ${JSON.stringify(result.content)}`);
  return result.content[0]!.text ?? '';
}
