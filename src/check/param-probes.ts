/**
 * The `Mcp-Param-*` probes: a `--call` tool whose `inputSchema` mirrors an argument into a
 * header is called with every header right (the tool runs: `--call` says it is safe), then
 * with one header disagreeing with the body and with that header left out; a server must
 * refuse those two before running anything. Source: 2026-07-28
 * basic/transports/streamable-http "Server Behavior for Custom Headers".
 */
import { LATEST_REVISION } from '../core/index.js';
import { headerValueOf, valueAtPath, type HeaderAnnotation } from '../core/runtime.js';
import { mirroredHeaders, rememberAnnotations, type HttpChannelOptions } from './http-channel.js';
import { ask } from './http-probes.js';
import type { EraSeen, Json, ParamProbe } from './observations.js';
import { RequestMaker } from './requests.js';

/** A value of the same type as `value` that is not equal to it, or undefined. */
function otherThan(value: unknown): unknown {
  if (typeof value === 'string') return `${value}-mcpkit-check`;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value >= Number.MAX_SAFE_INTEGER ? value - 1 : value + 1;
  return undefined;
}

/** The first annotation of `annotations` whose argument is in `args` with a header value. */
function mirroredIn(annotations: readonly HeaderAnnotation[], args: Json): HeaderAnnotation | undefined {
  return annotations.find((a) => headerValueOf(valueAtPath(args, a.path)) !== undefined);
}

/** Runs the probes for each `--call` of the modern era whose tool mirrors an argument. */
export async function probeParams(options: HttpChannelOptions, modern: EraSeen): Promise<ParamProbe[]> {
  const tools = new Map<string, readonly HeaderAnnotation[]>();
  rememberAnnotations(tools, { tools: modern.lists['tools/list']?.items ?? [] });
  const maker = new RequestMaker('modern');
  const probes: ParamProbe[] = [];
  const done = new Set<string>();
  for (const { tool, args } of modern.calls) {
    const annotation = mirroredIn(tools.get(tool) ?? [], args);
    if (!annotation || done.has(tool)) continue;
    done.add(tool);
    const key = `mcp-param-${annotation.name.toLowerCase()}`;
    const call = (): Json => maker.make('tools/call', { name: tool, arguments: args });
    const right = (request: Json): Record<string, string> => ({
      'mcp-protocol-version': LATEST_REVISION,
      ...mirroredHeaders(request, tools),
    });
    const accepted = call();
    const mismatched = call();
    const wrong = headerValueOf(otherThan(valueAtPath(args, annotation.path))) ?? '';
    const missing = call();
    const without = right(missing);
    delete without[key];
    probes.push({
      tool,
      header: `Mcp-Param-${annotation.name}`,
      accepted: await ask(options, accepted, right(accepted)),
      mismatched: await ask(options, mismatched, { ...right(mismatched), [key]: wrong }),
      missing: await ask(options, missing, without),
    });
  }
  return probes;
}
