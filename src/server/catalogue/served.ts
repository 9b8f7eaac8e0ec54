/**
 * The feature methods' view of a server's catalogue (catalogue.ts): listing for a caller,
 * and calling, rendering and reading by name or URI, with a hidden entry treated as absent.
 * While nothing is mounted or transformed, each call goes to the server's own registry.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources.
 */
import {
  WireError,
  type Era,
  type Params,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '../../core/index.js';
import { legacyToolResult } from '../legacy/projection.js';
import type { RequestContext } from '../context.js';
import type { Completer } from '../completion.js';
import type { InputRequiredAnswer } from '../mrtr.js';
import { normalise, notFound } from '../resources.js';
import type { SchemaInput } from '../../validation/index.js';
import type { TaskPolicy, ToolResult } from '../tool-types.js';
import type { ServerCatalogue, OwnRegistries } from './catalogue.js';
import { isVisible, type Caller, type PromptRendering, type ReadResult } from './types.js';

/** Tools, as the feature methods and the task runner use them. */
export class ServedTools {
  readonly #own: OwnRegistries;
  readonly #catalogue: ServerCatalogue;

  constructor(own: OwnRegistries, catalogue: ServerCatalogue) {
    this.#own = own;
    this.#catalogue = catalogue;
  }

  get size(): number {
    return this.#catalogue.composed ? this.#catalogue.compiled().tools.size : this.#own.tools.size;
  }

  get hasTaskTools(): boolean {
    return this.#catalogue.composed ? this.#catalogue.compiled().hasTaskTools : this.#own.tools.hasTaskTools;
  }

  /** The tools `caller` sees, in the modern form or as a legacy session sees them. */
  list(caller: Caller): readonly Tool[] {
    const legacy = caller.era === 'legacy';
    if (!this.#catalogue.composed) return legacy ? this.#own.tools.legacyList() : this.#own.tools.list();
    return this.#catalogue.compiled().toolList(caller, legacy);
  }

  /**
   * Not an async frame when nothing is composed (the registry's call is; one tick less per call).
   * @throws WireError -32602 (as a rejection) for an unknown (or hidden) tool or non-object arguments.
   */
  call(name: unknown, args: unknown, ctx: RequestContext): Promise<ToolResult | InputRequiredAnswer> {
    if (!this.#catalogue.composed) return this.#own.tools.call(name, args, ctx);
    return this.#callComposed(name, args, ctx);
  }

  async #callComposed(
    name: unknown,
    args: unknown,
    ctx: RequestContext,
  ): Promise<ToolResult | InputRequiredAnswer> {
    if (typeof name !== 'string')
      throw WireError.of('InvalidParams', 'tools/call needs the tool name as a string');
    const served = this.#catalogue.compiled().tools.get(name);
    if (!served || !isVisible(served.entry, ctx))
      throw WireError.of('InvalidParams', `Unknown tool: ${name}`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw WireError.of('InvalidParams', 'arguments must be an object');
    return served.entry.call(args ?? {}, ctx);
  }

  /** A result of tool `name` as a legacy session receives it. */
  legacyResult(name: unknown, result: Params): Params {
    if (!this.#catalogue.composed) return this.#own.tools.legacyResult(name, result);
    const served = typeof name === 'string' ? this.#catalogue.compiled().tools.get(name) : undefined;
    return legacyToolResult(result, served?.legacy.wrapsOutput ?? false);
  }

  /** The task policy of a tool `caller` may use (undefined otherwise, or when it never runs as a task). */
  taskPolicy(name: unknown, caller?: Caller): TaskPolicy<SchemaInput | undefined> | undefined {
    if (!this.#catalogue.composed) return this.#own.tools.taskPolicy(name);
    const served = typeof name === 'string' ? this.#catalogue.compiled().tools.get(name) : undefined;
    if (!served || (caller && !isVisible(served.entry, caller))) return undefined;
    const task = served.entry.task;
    return task?.support === 'forbidden' ? undefined : task;
  }

  /** Validates arguments against the tool's own schema (through its original when transformed). */
  async checkArgs(name: string, args: unknown): Promise<{ value: unknown } | undefined> {
    if (!this.#catalogue.composed) return this.#own.tools.checkArgs(name, args);
    const entry = this.#catalogue.compiled().tools.get(name)?.entry;
    if (!entry?.checkArgs) return undefined;
    return entry.checkArgs(args ?? {});
  }
}

/** Prompts, as the feature methods use them. */
export class ServedPrompts {
  readonly #own: OwnRegistries;
  readonly #catalogue: ServerCatalogue;

  constructor(own: OwnRegistries, catalogue: ServerCatalogue) {
    this.#own = own;
    this.#catalogue = catalogue;
  }

  get size(): number {
    return this.#catalogue.composed ? this.#catalogue.compiled().prompts.size : this.#own.prompts.size;
  }

  list(caller: Caller): readonly Prompt[] {
    if (!this.#catalogue.composed) return this.#own.prompts.list();
    return this.#catalogue.compiled().promptList(caller);
  }

  has(name: string, caller: Caller): boolean {
    if (!this.#catalogue.composed) return this.#own.prompts.has(name);
    const entry = this.#catalogue.compiled().prompts.get(name);
    return entry !== undefined && isVisible(entry, caller);
  }

  completer(name: string, argument: string): Completer | undefined {
    if (!this.#catalogue.composed) return this.#own.prompts.completer(name, argument);
    return this.#catalogue.compiled().prompts.get(name)?.completer(argument);
  }

  /** @throws WireError -32602 for an unknown (or hidden) prompt or invalid arguments. */
  async get(
    name: unknown,
    args: unknown,
    ctx: RequestContext,
  ): Promise<PromptRendering | InputRequiredAnswer> {
    if (!this.#catalogue.composed) return this.#own.prompts.get(name, args, ctx);
    if (typeof name !== 'string')
      throw WireError.of('InvalidParams', 'prompts/get needs the prompt name as a string');
    const entry = this.#catalogue.compiled().prompts.get(name);
    if (!entry || !isVisible(entry, ctx)) throw WireError.of('InvalidParams', `Unknown prompt: ${name}`);
    return entry.get(args ?? {}, ctx);
  }
}

/** Resources and templates, as the feature methods use them. */
export class ServedResources {
  readonly #own: OwnRegistries;
  readonly #catalogue: ServerCatalogue;

  constructor(own: OwnRegistries, catalogue: ServerCatalogue) {
    this.#own = own;
    this.#catalogue = catalogue;
  }

  get resourceCount(): number {
    return this.#catalogue.composed
      ? this.#catalogue.compiled().resources.size
      : this.#own.resources.resourceCount;
  }
  get templateCount(): number {
    return this.#catalogue.composed
      ? this.#catalogue.compiled().templates.size
      : this.#own.resources.templateCount;
  }

  listResources(caller: Caller): readonly Resource[] {
    if (!this.#catalogue.composed) return this.#own.resources.listResources();
    return this.#catalogue.compiled().resourceList(caller);
  }

  listTemplates(caller: Caller): readonly ResourceTemplate[] {
    if (!this.#catalogue.composed) return this.#own.resources.listTemplates();
    return this.#catalogue.compiled().templateList(caller);
  }

  /** Resolves once every template can match URIs. */
  async ready(): Promise<void> {
    if (!this.#catalogue.composed) return this.#own.resources.ready();
    for (const t of this.#catalogue.compiled().templates.values()) await t.matcher.ready;
  }

  /** True when `uri` names a resource or matches a template `caller` may see (after {@link ready}). */
  has(uri: string, caller: Caller): boolean {
    if (!this.#catalogue.composed) return this.#own.resources.has(uri);
    const c = this.#catalogue.compiled();
    return c.fixedResource(uri, caller) !== undefined || c.matchTemplate(uri, caller) !== undefined;
  }

  hasTemplate(uriTemplate: string, caller: Caller): boolean {
    if (!this.#catalogue.composed) return this.#own.resources.hasTemplate(uriTemplate);
    const t = this.#catalogue.compiled().templates.get(uriTemplate);
    return t !== undefined && isVisible(t, caller);
  }

  completer(uriTemplate: string, variable: string): Completer | undefined {
    if (!this.#catalogue.composed) return this.#own.resources.completer(uriTemplate, variable);
    return this.#catalogue.compiled().templates.get(uriTemplate)?.completer(variable);
  }

  /**
   * Reads a resource: a listed URI first (either spelling), then templates in order; hidden
   * ones are not found. @throws WireError not found: -32602 (modern) or -32002 (legacy).
   */
  async read(uri: unknown, era: Era, ctx: RequestContext): Promise<ReadResult | InputRequiredAnswer> {
    if (!this.#catalogue.composed) return this.#own.resources.read(uri, era, ctx);
    if (typeof uri !== 'string') throw WireError.of('InvalidParams', 'uri must be a string');
    const c = this.#catalogue.compiled();
    const fixed = c.fixedResource(uri, ctx);
    if (fixed) return normalise(await fixed.read(ctx));
    await this.ready();
    const matched = c.matchTemplate(uri, ctx);
    if (matched) return normalise(await matched.entry.read(uri, matched.variables, ctx));
    throw notFound(uri, era);
  }
}
