/**
 * A catalogue made ready to serve: entries by name and URI, the listing arrays, and the
 * legacy projection of each tool, built once per change of what it was made from. Two
 * entries of one name (or URI, in either spelling, or template) are a collision.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources; 2025-11-25 server/tools.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../core/index.js';
import { legacyTool, type LegacyTool } from '../legacy/projection.js';
import { resourceUriKey } from '../resource-uri.js';
import {
  isVisible,
  type Caller,
  type Catalogue,
  type CatalogueEntry,
  type PromptEntry,
  type ResourceEntry,
  type TemplateEntry,
  type ToolEntry,
} from './types.js';

/** A tool ready to serve: its entry and its legacy projection. */
export interface ServedTool {
  readonly entry: ToolEntry;
  readonly legacy: LegacyTool;
}

/** The four listed kinds, as fingerprints and list-change events name them. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** A catalogue indexed for serving (see the module comment). */
export class CompiledCatalogue {
  readonly catalogue: Catalogue;
  readonly tools = new Map<string, ServedTool>();
  readonly prompts = new Map<string, PromptEntry>();
  readonly resources = new Map<string, ResourceEntry>();
  readonly templates = new Map<string, TemplateEntry>();
  /** What collided, one sentence each (the later entry is left out). */
  readonly collisions: string[] = [];
  /** True when some entry is seen by some callers only. */
  readonly perCaller: boolean;
  readonly hasTaskTools: boolean;
  /** True when some template names OAuth scopes (the scope check then matches templates). */
  readonly scopedTemplates: boolean;
  readonly #perCallerKinds: Readonly<Record<ListKind, boolean>>;
  #everyone: { tools: Tool[]; legacy: Tool[]; prompts: Prompt[]; resources: Resource[] } | undefined;
  #templateList: ResourceTemplate[] | undefined;

  constructor(catalogue: Catalogue) {
    for (const entry of catalogue.tools)
      if (this.#claim(this.tools, entry.tool.name, `tool '${entry.tool.name}'`))
        this.tools.set(entry.tool.name, { entry, legacy: legacyTool(entry.tool) });
    for (const entry of catalogue.prompts)
      if (this.#claim(this.prompts, entry.prompt.name, `prompt '${entry.prompt.name}'`))
        this.prompts.set(entry.prompt.name, entry);
    for (const entry of catalogue.resources) {
      const key = resourceUriKey(entry.resource.uri);
      if (this.#claim(this.resources, key, `resource '${entry.resource.uri}'`))
        this.resources.set(key, entry);
    }
    for (const entry of catalogue.templates) {
      const key = entry.template.uriTemplate;
      if (this.#claim(this.templates, key, `resource template '${key}'`)) this.templates.set(key, entry);
    }
    this.catalogue = {
      tools: [...this.tools.values()].map((t) => t.entry),
      prompts: [...this.prompts.values()],
      resources: [...this.resources.values()],
      templates: [...this.templates.values()],
    };
    const all: CatalogueEntry[] = [
      ...this.catalogue.tools,
      ...this.catalogue.prompts,
      ...this.catalogue.resources,
      ...this.catalogue.templates,
    ];
    this.perCaller = all.some((e) => e.visible !== undefined);
    const some = (entries: readonly CatalogueEntry[]) => entries.some((e) => e.visible !== undefined);
    this.#perCallerKinds = {
      tools: some(this.catalogue.tools),
      prompts: some(this.catalogue.prompts),
      resources: some(this.catalogue.resources) || some(this.catalogue.templates),
    };
    this.hasTaskTools = this.catalogue.tools.some((t) => t.task && t.task.support !== 'forbidden');
    this.scopedTemplates = this.catalogue.templates.some((t) => (t.scopes?.length ?? 0) > 0);
  }

  #claim(taken: Map<string, unknown>, key: string, what: string): boolean {
    if (!taken.has(key)) return true;
    this.collisions.push(`${what} is offered twice`);
    return false;
  }

  /** True when some entry of the list of `kind` is seen by some callers only. */
  perCallerOf(kind: ListKind): boolean {
    return this.#perCallerKinds[kind];
  }

  /** The tool list `caller` sees (modern form, or its legacy projection). */
  toolList(caller: Caller, legacy: boolean): readonly Tool[] {
    if (!this.perCaller) return legacy ? this.#all().legacy : this.#all().tools;
    const out: Tool[] = [];
    for (const served of this.tools.values())
      if (isVisible(served.entry, caller)) out.push(legacy ? served.legacy.tool : served.entry.tool);
    return out;
  }

  promptList(caller: Caller): readonly Prompt[] {
    if (!this.perCaller) return this.#all().prompts;
    return this.catalogue.prompts.filter((e) => isVisible(e, caller)).map((e) => e.prompt);
  }

  resourceList(caller: Caller): readonly Resource[] {
    if (!this.perCaller) return this.#all().resources;
    return this.catalogue.resources.filter((e) => isVisible(e, caller)).map((e) => e.resource);
  }

  templateList(caller: Caller): readonly ResourceTemplate[] {
    if (!this.perCaller) return (this.#templateList ??= this.catalogue.templates.map((e) => e.template));
    return this.catalogue.templates.filter((e) => isVisible(e, caller)).map((e) => e.template);
  }

  /**
   * The fixed resource serving `uri` for `caller`: the one of its key (resource-uri.ts),
   * unless hidden from `caller`. With {@link matchTemplate}, the one lookup that both
   * `resources/read` serves by and the scope check decides on.
   */
  fixedResource(uri: string, caller: Caller | undefined): ResourceEntry | undefined {
    const fixed = this.resources.get(resourceUriKey(uri));
    return fixed && (caller === undefined || isVisible(fixed, caller)) ? fixed : undefined;
  }

  /**
   * The first template, in order, that matches `uri` and `caller` may see, with the
   * variables it matched. Call it only after every matcher is ready (`ServedResources.ready`).
   */
  matchTemplate(
    uri: string,
    caller: Caller | undefined,
  ): { entry: TemplateEntry; variables: Record<string, string> } | undefined {
    for (const entry of this.templates.values()) {
      const variables =
        caller === undefined || isVisible(entry, caller) ? entry.matcher.match(uri) : undefined;
      if (variables) return { entry, variables };
    }
    return undefined;
  }

  /**
   * A fingerprint of the list of `kind` that `caller` sees (its entries' identities, in
   * order): equal fingerprints, same view. `ids` interns the entries across builds.
   */
  fingerprint(kind: ListKind, caller: Caller, ids: WeakMap<object, number>): string {
    const entries: readonly CatalogueEntry[] =
      kind === 'tools'
        ? this.catalogue.tools
        : kind === 'prompts'
          ? this.catalogue.prompts
          : [...this.catalogue.resources, ...this.catalogue.templates];
    const seen: number[] = [];
    for (const e of entries) if (isVisible(e, caller)) seen.push(idOf(ids, wireOf(e)));
    return seen.join(',');
  }

  #all(): { tools: Tool[]; legacy: Tool[]; prompts: Prompt[]; resources: Resource[] } {
    return (this.#everyone ??= {
      tools: [...this.tools.values()].map((t) => t.entry.tool),
      legacy: [...this.tools.values()].map((t) => t.legacy.tool),
      prompts: this.catalogue.prompts.map((e) => e.prompt),
      resources: this.catalogue.resources.map((e) => e.resource),
    });
  }
}

/** The wire definition of an entry: what a client's view is made of. */
function wireOf(e: CatalogueEntry): object {
  if ('tool' in e) return e.tool;
  if ('prompt' in e) return e.prompt;
  return 'resource' in e ? e.resource : e.template;
}

let nextId = 0;
function idOf(ids: WeakMap<object, number>, wire: object): number {
  let id = ids.get(wire);
  if (id === undefined) ids.set(wire, (id = nextId++));
  return id;
}
