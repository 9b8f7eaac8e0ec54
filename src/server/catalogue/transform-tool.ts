/**
 * `transformTool`: a tool reshaped for a model, served in place of its original: another
 * name, title, description, annotations or tags; arguments hidden behind a fixed or computed
 * value, or given another description or a default. The new tool checks its own input
 * schema, fills defaults, hidden values and computed values in, and forwards to the
 * original, which checks its own schema and its output schema as before: the output schema
 * is the original's. A fixed value the original's schema refuses is refused when the
 * transform is applied (`server.transform()` or `server.mount()`).
 * Source: 2026-07-28 server/tools ("Tool", input and output schemas).
 */
import { LocalError, type Tool, type ToolAnnotations } from '../../core/index.js';
import { isObject } from '../../core/runtime.js';
import { compileSchema, type CompiledSchema } from '../../validation/index.js';
import type { RequestContext } from '../context.js';
import { errorResult, toolNameProblem } from '../tools.js';
import type { Catalogue, ToolEntry, Transform } from './types.js';

/** How one argument of a transformed tool changes. */
export interface ArgumentChange {
  /** A new description of the argument. */
  description?: string;
  /** A default: the argument becomes optional, and this value is sent when it is left out. */
  default?: unknown;
  /**
   * Hides the argument and always sends this value (checked against the original's schema
   * for the argument when the transform is applied).
   */
  value?: unknown;
  /** Hides the argument and sends what this returns, computed per call (e.g. from `ctx.auth`). */
  compute?: (args: Record<string, unknown>, ctx: RequestContext) => unknown;
}

/** How a tool changes (see {@link transformTool}); absent fields stay as they are. */
export interface ToolChange {
  name?: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  tags?: string[];
  /** Changes per argument, by the original's argument name. */
  arguments?: Record<string, ArgumentChange>;
}

/**
 * Replaces tool `name` with its transformed form (see the module comment).
 * @throws LocalError `INVALID_DEFINITION` at once for a new name `server.tool()` would refuse
 *   (1–128 characters, no control characters); when applied, for an unknown tool or
 *   argument, an argument both fixed and computed, or a fixed value the original's schema
 *   refuses.
 */
export function transformTool(name: string, change: ToolChange): Transform {
  const problem = change.name === undefined ? undefined : toolNameProblem(change.name);
  if (problem !== undefined) throw invalid(`transformTool: ${problem}`);
  const made = new WeakMap<ToolEntry, ToolEntry>();
  return (catalogue: Catalogue): Catalogue => {
    const index = catalogue.tools.findIndex((t) => t.tool.name === name);
    if (index < 0) throw invalid(`transformTool: no tool '${name}' to transform`);
    const original = catalogue.tools[index]!;
    let entry = made.get(original);
    if (!entry) made.set(original, (entry = transformed(original, change)));
    const tools = [...catalogue.tools];
    tools[index] = entry;
    return { ...catalogue, tools };
  };
}

/** Renames (and optionally re-describes) tool `name`: {@link transformTool} with a name. */
export function renameTool(name: string, newName: string, description?: string): Transform {
  return transformTool(name, description === undefined ? { name: newName } : { name: newName, description });
}

type Schema = Record<string, unknown>;

function transformed(original: ToolEntry, change: ToolChange): ToolEntry {
  const name = change.name ?? original.tool.name;
  const argChanges = Object.entries(change.arguments ?? {});
  const schema = original.tool.inputSchema as Schema;
  const inputSchema = reshaped(schema, argChanges, name);
  const input = compileSchema(inputSchema, undefined, `tool '${name}' inputSchema`);
  const forward = (value: Record<string, unknown>, ctx: RequestContext) => fill(value, argChanges, ctx);
  const tool: Tool = { ...original.tool, name, inputSchema: inputSchema as Tool['inputSchema'] };
  if (change.title !== undefined) tool.title = change.title;
  if (change.description !== undefined) tool.description = change.description;
  if (change.annotations !== undefined) tool.annotations = change.annotations;
  const task = original.task?.prepare
    ? { ...original.task, prepare: prepareThrough(original, forward) }
    : original.task;
  return {
    ...original,
    tool,
    tags: change.tags ?? original.tags,
    task,
    call: async (args, ctx) => {
      const checked = await input.validate(args ?? {});
      if (!checked.ok) return errorResult(`Invalid arguments for tool ${name}: ${checked.issues.join('; ')}`);
      return original.call(await forward(checked.value as Record<string, unknown>, ctx), ctx);
    },
    checkArgs: async (args) => {
      const checked = await input.validate(args ?? {});
      return checked.ok ? { value: checked.value } : undefined;
    },
  };
}

/** A task's `prepare` of the original, given the arguments the original receives. */
function prepareThrough(
  original: ToolEntry,
  forward: (value: Record<string, unknown>, ctx: RequestContext) => Promise<Record<string, unknown>>,
): (args: Record<string, unknown>, ctx: RequestContext) => Promise<unknown> {
  const prepare = original.task!.prepare!;
  return async (args, ctx) => prepare(await forward(args, ctx), ctx);
}

/** The transformed tool's input schema; checks each change against the original's. */
function reshaped(schema: Schema, changes: [string, ArgumentChange][], tool: string): Schema {
  const properties: Schema = isObject(schema.properties) ? { ...schema.properties } : {};
  let required = Array.isArray(schema.required) ? [...(schema.required as string[])] : [];
  for (const [arg, change] of changes) {
    if (!Object.hasOwn(properties, arg)) throw invalid(`transformTool '${tool}': no argument '${arg}'`);
    const hidden = 'value' in change || change.compute !== undefined;
    if ('value' in change && change.compute !== undefined)
      throw invalid(`transformTool '${tool}': argument '${arg}' is both fixed and computed`);
    if ('value' in change) checkFixed(schema, { arg, value: change.value }, tool);
    if (hidden || 'default' in change) required = required.filter((r) => r !== arg);
    if (hidden) {
      delete properties[arg];
      continue;
    }
    const p = { ...(isObject(properties[arg]) ? properties[arg] : {}) };
    if (change.description !== undefined) p.description = change.description;
    if ('default' in change) p.default = change.default;
    properties[arg] = p;
  }
  const out: Schema = { ...schema, properties };
  if (required.length > 0) out.required = required;
  else delete out.required;
  return out;
}

/** @throws LocalError `INVALID_DEFINITION` when the original's schema for `arg` refuses `value`. */
function checkFixed(schema: Schema, fixed: { arg: string; value: unknown }, tool: string): void {
  const { arg, value } = fixed;
  const property = (schema.properties as Schema)[arg];
  const { $schema, $defs, definitions } = schema;
  const alone: Schema = isObject(property) ? { ...property } : property === false ? { not: {} } : {};
  if ($schema !== undefined) alone.$schema = $schema;
  if ($defs !== undefined) alone.$defs = $defs;
  if (definitions !== undefined) alone.definitions = definitions;
  let compiled: CompiledSchema;
  try {
    compiled = compileSchema(alone, undefined, `transformTool '${tool}' argument '${arg}'`);
  } catch (error) {
    throw invalid(`transformTool '${tool}': the schema of argument '${arg}' cannot be checked`, error);
  }
  const outcome = compiled.validate(value);
  const refuse = (issues: string[]): never => {
    throw invalid(
      `transformTool '${tool}': the fixed value of '${arg}' fails its schema: ${issues.join('; ')}`,
    );
  };
  if (!(outcome instanceof Promise)) {
    if (!outcome.ok) refuse(outcome.issues);
    return;
  }
  // An engine still loading answers later: the value is then checked by the original on each call.
  outcome.catch(() => undefined);
}

/** The original's arguments: the caller's, with defaults, fixed and computed values filled in. */
async function fill(
  value: Record<string, unknown>,
  changes: [string, ArgumentChange][],
  ctx: RequestContext,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...value };
  for (const [arg, change] of changes) {
    if ('value' in change) out[arg] = change.value;
    else if (change.compute) out[arg] = await change.compute(value, ctx);
    else if ('default' in change && !Object.hasOwn(value, arg)) out[arg] = change.default;
  }
  return out;
}

function invalid(message: string, cause?: unknown): LocalError {
  return new LocalError('INVALID_DEFINITION', message, { cause });
}
