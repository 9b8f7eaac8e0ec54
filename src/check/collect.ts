/**
 * The probes of one era: open (discover or initialize), walk every list, make the `--call`
 * calls, and send the requests that must change nothing (an unknown method, an unknown
 * tool, malformed params, invalid arguments, an unknown protocol version). What comes back
 * is kept as observations; no judgement is made here.
 */
import { LATEST_REVISION, LocalError, type Era } from '../core/index.js';
import type { Channel } from './channel.js';
import {
  LIST_METHODS,
  type Answer,
  type EraRefused,
  type EraSeen,
  type Json,
  type ListMethod,
  type ListWalk,
  type ProbeName,
} from './observations.js';
import { isObject, resultOf } from './rules/kit.js';
import { INITIALIZED, NO_SUCH_METHOD, NO_SUCH_TOOL, RequestMaker, UNKNOWN_VERSION } from './requests.js';

/** A tool the user named as safe to call, with its arguments. */
export interface SafeCall {
  tool: string;
  args: Json;
}

/** What the probes of one era need. */
export interface EraPlan {
  era: Era;
  channel: Channel;
  calls: readonly SafeCall[];
  /** Most pages walked per list before giving up. */
  maxPages: number;
  /** Opens a fresh connection for the legacy unknown-version `initialize`. */
  fresh?: () => Channel;
  /** Called with the negotiated legacy version and the `initialize` answer (HTTP sessions). */
  opened?: (version: string, answer: Answer) => void;
}

/** Runs every probe of one era; the era is refused when the server does not open it. */
export async function seeEra(plan: EraPlan): Promise<EraSeen | EraRefused> {
  const maker = new RequestMaker(plan.era);
  const opened = await open(plan, maker);
  if ('answer' in opened) return opened;
  const seen = opened;
  const has = (name: string): boolean => Object.hasOwn(seen.capabilities, name);
  for (const method of Object.keys(LIST_METHODS) as ListMethod[]) {
    seen.lists[method] = await walk(plan, maker, method);
    if (has(method.split('/')[0] ?? '')) seen.lists[method].again = await names(plan, maker, method);
  }
  const listed = new Set(
    (seen.lists['tools/list']?.items ?? []).flatMap((tool) =>
      isObject(tool) && typeof tool.name === 'string' ? [tool.name] : [],
    ),
  );
  const unlisted = plan.calls.find((call) => !listed.has(call.tool));
  if (unlisted)
    throw new LocalError(
      'INVALID_ARGUMENT',
      `--call ${unlisted.tool}: the server lists no tool of that name on the ${plan.era} era (it lists ${listedNames(listed)})`,
    );
  for (const call of plan.calls) {
    const answer = await plan.channel.request(
      maker.make('tools/call', { name: call.tool, arguments: call.args }),
    );
    seen.calls.push({ tool: call.tool, args: call.args, answer });
  }
  await probe(plan, maker, seen);
  return seen;
}

/** Up to ten of the listed tool names, for an error message. */
function listedNames(listed: ReadonlySet<string>): string {
  if (listed.size === 0) return 'no tools';
  const names = [...listed].slice(0, 10).join(', ');
  return listed.size > 10 ? `${names}, … (${listed.size} tools)` : names;
}

async function open(plan: EraPlan, maker: RequestMaker): Promise<EraSeen | EraRefused> {
  const request = plan.era === 'modern' ? maker.make('server/discover') : maker.initialize();
  const answer = await plan.channel.request(request);
  const result = resultOf(answer);
  const base = { era: plan.era, opening: answer, lists: {}, calls: [], probes: {} };
  if (plan.era === 'modern') {
    const supported = result?.supportedVersions;
    if (!Array.isArray(supported) || !supported.includes(LATEST_REVISION)) return { era: plan.era, answer };
    return { ...base, revision: LATEST_REVISION, capabilities: capabilitiesOf(result) };
  }
  const version = result?.protocolVersion;
  if (typeof version !== 'string') return { era: plan.era, answer };
  plan.opened?.(version, answer);
  await plan.channel.notify(INITIALIZED);
  return { ...base, revision: version, capabilities: capabilitiesOf(result) };
}

function capabilitiesOf(result: Json | undefined): Json {
  return isObject(result?.capabilities) ? result.capabilities : {};
}

/** Walks a list to its end, a repeated cursor, an error or `maxPages`. */
async function walk(plan: EraPlan, maker: RequestMaker, method: ListMethod): Promise<ListWalk> {
  const key = LIST_METHODS[method];
  const out: ListWalk = { method, pages: [], items: [], ended: 'done' };
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    if (out.pages.length >= plan.maxPages) return { ...out, ended: 'limit' };
    const answer = await plan.channel.request(maker.make(method, cursor === undefined ? {} : { cursor }));
    out.pages.push(answer);
    const result = resultOf(answer);
    if (!result) return { ...out, ended: 'error' };
    const items = result[key];
    if (Array.isArray(items)) out.items.push(...items.filter(isObject));
    const next = result.nextCursor;
    if (typeof next !== 'string') return out;
    if (cursors.has(next)) return { ...out, ended: 'loop' };
    cursors.add(next);
    cursor = next;
  }
}

/** The identity of a listed item: its name, else its URI or URI template. */
export function itemKey(item: Json): string {
  const key = item.name ?? item.uri ?? item.uriTemplate;
  return typeof key === 'string' ? key : JSON.stringify(key);
}

async function names(plan: EraPlan, maker: RequestMaker, method: ListMethod): Promise<string[]> {
  const again = await walk(plan, maker, method);
  return again.items.map(itemKey);
}

/** The requests that must change nothing, each answered with the code the spec gives. */
async function probe(plan: EraPlan, maker: RequestMaker, seen: EraSeen): Promise<void> {
  const ask = async (name: ProbeName, request: Json): Promise<void> => {
    seen.probes[name] = await plan.channel.request(request);
  };
  await ask('unknownMethod', maker.make(NO_SUCH_METHOD));
  const tools = Object.hasOwn(seen.capabilities, 'tools');
  if (tools) await ask('unknownTool', maker.make('tools/call', { name: NO_SUCH_TOOL, arguments: {} }));
  const malformed = malformedRequest(maker, seen.capabilities);
  if (malformed) await ask('malformedParams', malformed);
  const invalid = invalidArguments(plan, maker, seen);
  if (invalid) await ask('invalidArguments', invalid);
  if (plan.era === 'modern') await ask('unknownVersion', maker.make('server/discover', {}, UNKNOWN_VERSION));
  else if (plan.fresh) {
    const channel = plan.fresh();
    try {
      seen.probes.unknownVersion = await channel.request(maker.initialize(UNKNOWN_VERSION));
    } finally {
      await channel.close();
    }
  }
}

/**
 * A request whose params break the method's schema (`arguments` that is no object); its
 * name is a string, so it passes the HTTP header checks and reaches the params check.
 */
function malformedRequest(maker: RequestMaker, capabilities: Json): Json | undefined {
  const params = { name: NO_SUCH_TOOL, arguments: 'not-an-object' };
  if (Object.hasOwn(capabilities, 'tools')) return maker.make('tools/call', params);
  if (Object.hasOwn(capabilities, 'prompts')) return maker.make('prompts/get', params);
  return undefined;
}

/**
 * A call of a `--call` tool without its required arguments: the server must refuse it
 * before running anything, so it is sent only for tools named as safe.
 */
function invalidArguments(plan: EraPlan, maker: RequestMaker, seen: EraSeen): Json | undefined {
  const tools = seen.lists['tools/list']?.items ?? [];
  for (const call of plan.calls) {
    const tool = tools.find((t) => t.name === call.tool);
    const required = isObject(tool?.inputSchema) ? tool.inputSchema.required : undefined;
    if (Array.isArray(required) && required.length > 0)
      return maker.make('tools/call', { name: call.tool, arguments: {} });
  }
  return undefined;
}
