/**
 * A mounted server's catalogue under its prefix, by the namespacing rule of
 * core/namespace.ts (the host's and the gateway's too): tool and prompt names become
 * `prefix__name`, resource URIs and templates `prefix+uri`. Calls reach the child's own
 * entries, which check arguments and results against the child's definitions. Each entry
 * is qualified once and kept while the child's entry lives, so a client's view of a list
 * stays the same across rebuilds of an unchanged child.
 * Source: 2026-07-28 server/tools "Tool Names" (aggregators SHOULD prefix names).
 */
import { LocalError } from '../../core/index.js';
import { qualifyName, qualifyUri, unqualifyUri } from '../../core/runtime.js';
import { compileUriTemplate } from '../uri-template.js';
import type { Catalogue, PromptEntry, ResourceEntry, TemplateEntry, ToolEntry } from './types.js';

const PREFIX = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Checks a mount prefix: '' (names unchanged) or 1–64 of A-Z a-z 0-9 _ - . (no `+`, which
 * ends the prefix of a URI). @throws LocalError `INVALID_DEFINITION`.
 */
export function checkPrefix(prefix: string): void {
  if (prefix === '' || PREFIX.test(prefix)) return;
  throw new LocalError(
    'INVALID_DEFINITION',
    `mount prefix ${JSON.stringify(prefix)} must be '' or 1–64 of A-Z a-z 0-9 _ - . (it starts names and URIs)`,
  );
}

/** Qualifies the entries of one mount; made once per mount. */
export class MountNames {
  readonly prefix: string;
  readonly #made = new WeakMap<object, object>();

  constructor(prefix: string) {
    checkPrefix(prefix);
    this.prefix = prefix;
  }

  /** `catalogue` under the prefix (itself for the prefix ''). */
  qualify(catalogue: Catalogue): Catalogue {
    if (this.prefix === '') return catalogue;
    return {
      tools: catalogue.tools.map((e) => this.#once(e, () => this.#tool(e))),
      prompts: catalogue.prompts.map((e) => this.#once(e, () => this.#prompt(e))),
      resources: catalogue.resources.map((e) => this.#once(e, () => this.#resource(e))),
      templates: catalogue.templates.map((e) => this.#once(e, () => this.#template(e))),
    };
  }

  #once<T extends object>(entry: T, make: () => T): T {
    let made = this.#made.get(entry) as T | undefined;
    if (!made) this.#made.set(entry, (made = make()));
    return made;
  }

  #tool(e: ToolEntry): ToolEntry {
    return { ...e, tool: { ...e.tool, name: qualifyName(this.prefix, e.tool.name) } };
  }

  #prompt(e: PromptEntry): PromptEntry {
    return { ...e, prompt: { ...e.prompt, name: qualifyName(this.prefix, e.prompt.name) } };
  }

  #resource(e: ResourceEntry): ResourceEntry {
    return { ...e, resource: { ...e.resource, uri: qualifyUri(this.prefix, e.resource.uri) } };
  }

  #template(e: TemplateEntry): TemplateEntry {
    const uriTemplate = qualifyUri(this.prefix, e.template.uriTemplate);
    const prefix = this.prefix;
    return {
      ...e,
      template: { ...e.template, uriTemplate },
      matcher: compileUriTemplate(uriTemplate),
      // The child reads the URI it would have been asked for.
      read: (uri, variables, ctx) => e.read(unqualifyUri(prefix, uri) ?? uri, variables, ctx),
    };
  }

  /** The mount's URI for a URI of the child (`notifications/resources/updated`). */
  parentUri(uri: string): string {
    return this.prefix === '' ? uri : qualifyUri(this.prefix, uri);
  }
}
