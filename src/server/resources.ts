/**
 * The resource registry: fixed resources and resource templates, listing and reading.
 * Source: 2026-07-28 server/resources (not found → -32602 with `data.uri`);
 * 2025-11-25 server/resources (not found → -32002 on the legacy wire).
 */
import {
  WireError,
  LocalError,
  ERROR_TABLE,
  type Era,
  type Annotations,
  type Icon,
  type Resource,
  type ResourceContents,
  type ResourceTemplate,
} from '../core/index.js';
import type { RequestContext } from './context.js';
import { compileUriTemplate, type UriTemplate } from './uri-template.js';
import { resourceUriKey } from './resource-uri.js';
import type { Completer } from './completion.js';
import type { ResourceEntry, TemplateEntry } from './catalogue/types.js';
import { isInputRequired, type InputRequiredAnswer } from './mrtr.js';

/** Metadata of a resource or template, as listed. */
export interface ResourceMetadata {
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /**
   * OAuth scopes a caller needs to read it (or subscribe to it, complete its variables, or
   * name it in a listen filter) over authorized HTTP; for a template, every URI it serves.
   */
  scopes?: string[];
  /** Server-side labels that transforms and per-caller rules filter on (never sent on the wire). */
  tags?: string[];
}

/** What a read handler returns: a full result, or just the contents. */
export type ReadReturn =
  { contents: ResourceContents[]; _meta?: Record<string, unknown> } | ResourceContents[];

/** Reads a fixed resource. */
export type ResourceHandler = (
  uri: string,
  context: RequestContext,
) => ReadReturn | InputRequiredAnswer | Promise<ReadReturn | InputRequiredAnswer>;
/** Reads a URI matched by a template; `variables` are percent-decoded. */
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  context: RequestContext,
) => ReadReturn | InputRequiredAnswer | Promise<ReadReturn | InputRequiredAnswer>;

/** Template options: completion of template variables (`completion/complete` with `ref/resource`). */
export interface TemplateOptions extends ResourceMetadata {
  complete?: Record<string, Completer>;
}

interface RegisteredTemplate {
  wire: ResourceTemplate;
  template: UriTemplate;
  handler: TemplateHandler;
  complete: Record<string, Completer>;
  entry: TemplateEntry;
}

/** Holds a server's resources and templates. */
export class ResourceRegistry {
  readonly #resources = new Map<string, { wire: Resource; handler: ResourceHandler; entry: ResourceEntry }>();
  readonly #templates = new Map<string, RegisteredTemplate>();
  #resourceList: Resource[] = [];
  #templateList: ResourceTemplate[] = [];
  #entries: { resources: ResourceEntry[]; templates: TemplateEntry[] } | undefined;
  #revision = 0;

  /** Counts resource and template additions and removals: a cache of the lists keys on it. */
  get revision(): number {
    return this.#revision;
  }

  /** The resources and templates as catalogue entries, in registration order (made once per change). */
  entries(): { resources: readonly ResourceEntry[]; templates: readonly TemplateEntry[] } {
    return (this.#entries ??= {
      resources: [...this.#resources.values()].map((r) => r.entry),
      templates: [...this.#templates.values()].map((t) => t.entry),
    });
  }

  #changed(): void {
    this.#entries = undefined;
    this.#revision++;
  }

  /**
   * Registers a fixed resource, found by either spelling of its URI (resource-uri.ts).
   * @throws LocalError `INVALID_DEFINITION` on a duplicate URI, in either spelling.
   */
  addResource(uri: string, meta: ResourceMetadata, handler: ResourceHandler): void {
    const key = resourceUriKey(uri);
    if (this.#resources.has(key)) throw invalidDef(`resource '${uri}' is already registered`);
    const { scopes, tags = [], ...listed } = meta;
    const wire: Resource = { ...listed, uri, name: meta.name ?? uri };
    const entry: ResourceEntry = {
      resource: wire,
      tags: [...tags],
      scopes,
      read: async (ctx) => normalise(await handler(wire.uri, ctx)),
    };
    this.#resources.set(key, { wire, handler, entry });
    this.#resourceList = [...this.#resourceList, wire];
    this.#changed();
  }

  /** Registers a template. @throws LocalError `INVALID_DEFINITION` for a bad or duplicate template. */
  addTemplate(uriTemplate: string, options: TemplateOptions, handler: TemplateHandler): void {
    if (this.#templates.has(uriTemplate)) throw invalidDef(`template '${uriTemplate}' is already registered`);
    const { complete = {}, scopes, tags = [], ...meta } = options;
    const template = compileUriTemplate(uriTemplate);
    for (const name of Object.keys(complete)) {
      if (!template.variables.includes(name))
        throw invalidDef(`template '${uriTemplate}' has no variable '${name}' to complete`);
    }
    const wire: ResourceTemplate = { ...meta, uriTemplate, name: meta.name ?? uriTemplate };
    const entry: TemplateEntry = {
      template: wire,
      matcher: template,
      tags: [...tags],
      scopes,
      read: async (uri, variables, ctx) => normalise(await handler(uri, variables, ctx)),
      completer: (variable) => (Object.hasOwn(complete, variable) ? complete[variable] : undefined),
    };
    this.#templates.set(uriTemplate, { wire, template, handler, complete, entry });
    this.#templateList = [...this.#templateList, wire];
    this.#changed();
  }

  /** Removes a fixed resource; returns whether it existed. */
  removeResource(uri: string): boolean {
    const key = resourceUriKey(uri);
    const existed = this.#resources.delete(key);
    if (existed) {
      this.#resourceList = this.#resourceList.filter((r) => resourceUriKey(r.uri) !== key);
      this.#changed();
    }
    return existed;
  }

  /** Removes a template; returns whether it existed. */
  removeTemplate(uriTemplate: string): boolean {
    const existed = this.#templates.delete(uriTemplate);
    if (existed) {
      this.#templateList = this.#templateList.filter((t) => t.uriTemplate !== uriTemplate);
      this.#changed();
    }
    return existed;
  }

  get resourceCount(): number {
    return this.#resources.size;
  }
  get templateCount(): number {
    return this.#templates.size;
  }

  listResources(): readonly Resource[] {
    return this.#resourceList;
  }
  listTemplates(): readonly ResourceTemplate[] {
    return this.#templateList;
  }
  /** Resolves once the templates can match URIs (their engine loads on first use). */
  async ready(): Promise<void> {
    for (const t of this.#templates.values()) await t.template.ready;
  }

  /** True when `uri` names a registered resource or matches a template (after {@link ready}). */
  has(uri: string): boolean {
    return (
      this.#resources.has(resourceUriKey(uri)) ||
      [...this.#templates.values()].some((t) => t.template.match(uri))
    );
  }

  /** The completer of a template variable, if any. */
  completer(uriTemplate: string, variable: string): Completer | undefined {
    const complete = this.#templates.get(uriTemplate)?.complete;
    return complete && Object.hasOwn(complete, variable) ? complete[variable] : undefined;
  }
  hasTemplate(uriTemplate: string): boolean {
    return this.#templates.has(uriTemplate);
  }

  /**
   * Reads a resource: a registered URI first (either spelling; the handler gets the
   * registered one), then templates in registration order.
   * @throws WireError not found: -32602 with `data.uri` (modern) or -32002 (legacy).
   */
  async read(
    uri: unknown,
    era: Era,
    context: RequestContext,
  ): Promise<{ contents: ResourceContents[]; _meta?: Record<string, unknown> } | InputRequiredAnswer> {
    if (typeof uri !== 'string') throw WireError.of('InvalidParams', 'uri must be a string');
    const fixed = this.#resources.get(resourceUriKey(uri));
    if (fixed) return normalise(await fixed.handler(fixed.wire.uri, context));
    await this.ready();
    for (const t of this.#templates.values()) {
      const variables = t.template.match(uri);
      if (variables) return normalise(await t.handler(uri, variables, context));
    }
    throw notFound(uri, era);
  }
}

/** The not-found error of the era (modern -32602, legacy -32002), with `data.uri`. */
export function notFound(uri: string, era: Era): WireError {
  const code = era === 'modern' ? ERROR_TABLE.InvalidParams.code : ERROR_TABLE.ResourceNotFound.code;
  return new WireError(code, `Resource not found: ${uri}`, { data: { uri } });
}

/** A read handler's return as a read result. @throws LocalError `INVALID_RESULT` without contents. */
export function normalise(
  value: ReadReturn | InputRequiredAnswer,
): { contents: ResourceContents[]; _meta?: Record<string, unknown> } | InputRequiredAnswer {
  if (isInputRequired(value)) return value;
  const result = Array.isArray(value) ? { contents: value } : value;
  if (!Array.isArray(result.contents))
    throw new LocalError('INVALID_RESULT', 'A read handler must return contents');
  return result;
}

function invalidDef(message: string): LocalError {
  return new LocalError('INVALID_DEFINITION', message);
}
