/**
 * The feature methods both eras share (tools, resources, prompts, completion). Each
 * takes the request params and a context and returns the era-neutral result; the era
 * layer adds what its wire needs (`resultType`, cache fields, `_meta`).
 * Source: 2026-07-28 server/tools, server/resources, server/prompts, utilities/completion.
 */
import { WireError, type Params, type ServerCapabilities } from '../core/index.js';
import { runCompleter } from './completion.js';
import type { RequestContext } from './context.js';
import { paginate } from './pagination.js';
import type { ServedPrompts, ServedResources, ServedTools } from './catalogue/served.js';

/** What feature methods read: the server's catalogue (catalogue/served.ts) and its page size. */
export interface Features {
  readonly tools: ServedTools;
  readonly resources: ServedResources;
  readonly prompts: ServedPrompts;
  readonly pageSize: number;
}

/** A feature method: params and context in, result out. */
export type FeatureMethod = (f: Features, params: Params, ctx: RequestContext) => Promise<Params> | Params;

function page(list: string, items: readonly object[], params: Params, size: number, key: string): Params {
  const { items: slice, nextCursor } = paginate(list, items, params.cursor, size);
  return nextCursor === undefined ? { [key]: slice } : { [key]: slice, nextCursor };
}

/**
 * A shallow copy of a handler's result, which the era layer may then extend in place.
 * `Object.assign`, not a spread: adding fields to a spread copy is slower (bench/RESULTS.md);
 * a spread for a result with an own `__proto__` key, which `Object.assign` would make a prototype.
 */
export function copyResult(result: object): Params {
  return (Object.hasOwn(result, '__proto__') ? { ...result } : Object.assign({}, result)) as Params;
}

/** The feature methods by name. */
export const FEATURE_METHODS: Record<string, FeatureMethod> = {
  'tools/list': (f, p, ctx) => page('tools', f.tools.list(ctx), p, f.pageSize, 'tools'),
  'tools/call': async (f, p, ctx) => {
    const result = copyResult(await f.tools.call(p.name, p.arguments, ctx));
    return ctx.era === 'legacy' ? f.tools.legacyResult(p.name, result) : result;
  },
  'resources/list': (f, p, ctx) =>
    page('resources', f.resources.listResources(ctx), p, f.pageSize, 'resources'),
  'resources/templates/list': (f, p, ctx) =>
    page('templates', f.resources.listTemplates(ctx), p, f.pageSize, 'resourceTemplates'),
  'resources/read': async (f, p, ctx) => copyResult(await f.resources.read(p.uri, ctx.era, ctx)),
  'prompts/list': (f, p, ctx) => page('prompts', f.prompts.list(ctx), p, f.pageSize, 'prompts'),
  'prompts/get': async (f, p, ctx) => copyResult(await f.prompts.get(p.name, p.arguments, ctx)),
  'completion/complete': complete,
};

async function complete(f: Features, params: Params, ctx: RequestContext): Promise<Params> {
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
    throw WireError.of('InvalidParams', 'argument must have a string name and value');
  }
  const args = (params.context as { arguments?: Record<string, string> } | undefined)?.arguments ?? {};
  await f.resources.ready();
  const completer = findCompleter(f, ref, argument.name, ctx);
  return { completion: await runCompleter(completer, argument.value, { arguments: args, request: ctx }) };
}

function findCompleter(
  f: Features,
  ref: { type?: unknown; name?: unknown; uri?: unknown } | undefined,
  arg: string,
  ctx: RequestContext,
) {
  const era = ctx.era;
  if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
    if (!f.prompts.has(ref.name, ctx)) throw WireError.of('InvalidParams', `Unknown prompt: ${ref.name}`);
    return f.prompts.completer(ref.name, arg);
  }
  if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
    if (!f.resources.hasTemplate(ref.uri, ctx) && !f.resources.has(ref.uri, ctx)) {
      throw WireError.of(
        'InvalidParams',
        `Unknown resource template: ${ref.uri}`,
        era === 'modern' ? { uri: ref.uri } : undefined,
      );
    }
    return f.resources.completer(ref.uri, arg);
  }
  throw WireError.of('InvalidParams', 'ref must be a ref/prompt with a name or a ref/resource with a uri');
}

/**
 * The capabilities a server declares: `declared` plus what its registries hold, with
 * `listChanged` on each list unless the server said its lists never change.
 */
export function capabilitiesOf(
  features: Features,
  declared: ServerCapabilities | undefined,
  listChanged = true,
): ServerCapabilities {
  const { tools, resources, prompts } = features;
  const caps: ServerCapabilities = { logging: {}, ...declared };
  const changes = listChanged ? { listChanged: true } : {};
  if (tools.size > 0) caps.tools = { ...changes };
  if (resources.resourceCount + resources.templateCount > 0) caps.resources = { subscribe: true, ...changes };
  if (prompts.size > 0) caps.prompts = { ...changes };
  if (prompts.size > 0 || resources.templateCount > 0) caps.completions = {};
  return caps;
}
