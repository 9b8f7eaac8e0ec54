/**
 * The host's one registry: every ready server's tools, prompts, resources and resource
 * templates under collision-free names. Tools and prompts get qualified names; resources
 * and templates keep their URIs unless two servers offer the same one, in which case each
 * gets its server's prefix (`server+uri`). Rebuilt whenever a server's lists change.
 */
import { compileUriTemplate, type UriTemplate } from '../server/index.js';
import { resourceUriKey } from '../server/runtime.js';
import { URI_SEPARATOR, qualifyUri, unqualifyUri, uriPrefix } from '../core/runtime.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../core/index.js';
import type { ServerLists } from './lists.js';
import { isValidName, passes, type NameFilter, type QualifyName } from './names.js';
import { frontUiUri, isAppOnly, withFrontUi } from './apps.js';
import { APP_MIME_TYPE, toolUiOf } from '../core/apps.js';

/** A tool of the merged registry. */
export interface HostTool {
  /** The qualified name, e.g. `filesystem__read_text_file`. */
  readonly name: string;
  readonly server: string;
  /** The name on its server. */
  readonly originalName: string;
  /** The server's definition with `name` replaced by the qualified name. */
  readonly definition: Tool;
}

/** A prompt of the merged registry. */
export interface HostPrompt {
  readonly name: string;
  readonly server: string;
  readonly originalName: string;
  readonly definition: Prompt;
}

/** A resource of the merged registry; `uri` is prefixed only where servers collide. */
export interface HostResource {
  readonly uri: string;
  readonly server: string;
  readonly originalUri: string;
  readonly definition: Resource;
}

/** A resource template of the merged registry. */
export interface HostTemplate {
  readonly uriTemplate: string;
  readonly server: string;
  readonly originalTemplate: string;
  readonly definition: ResourceTemplate;
  readonly matcher: UriTemplate;
}

/** One server's contribution, as the registry reads it. */
export interface RegistrySource {
  readonly name: string;
  readonly lists: ServerLists;
  readonly filter: NameFilter;
}

/** A snapshot of the merged registry. */
export class Registry {
  readonly tools = new Map<string, HostTool>();
  readonly prompts = new Map<string, HostPrompt>();
  readonly resources = new Map<string, HostResource>();
  /** The same resources by the comparison key of their URI (server/resource-uri.ts). */
  readonly #resourceKeys = new Map<string, HostResource>();
  readonly templates: HostTemplate[] = [];
  /** Problems per server (collisions, invalid names). */
  readonly issues = new Map<string, string[]>();

  /** Builds the registry from `sources` in order (earlier servers win a name collision). */
  constructor(sources: readonly RegistrySource[], qualify: QualifyName) {
    for (const source of sources) {
      const { name: server, lists, filter } = source;
      for (const tool of lists.tools) {
        if (!passes(filter, tool.name)) continue;
        const wanted = isAppOnly(tool) ? tool.name : qualify(server, tool.name);
        const name = this.#claim(server, { what: 'tool', original: tool.name, name: wanted }, this.tools);
        if (name)
          this.tools.set(name, {
            name,
            server,
            originalName: tool.name,
            definition: { ...withFrontUi(tool, server), name },
          });
      }
      for (const prompt of lists.prompts) {
        if (!passes(filter, prompt.name)) continue;
        const name = this.#claim(
          server,
          { what: 'prompt', original: prompt.name, name: qualify(server, prompt.name) },
          this.prompts,
        );
        if (name)
          this.prompts.set(name, {
            name,
            server,
            originalName: prompt.name,
            definition: { ...prompt, name },
          });
      }
    }
    this.#addResources(sources);
    this.#addTemplates(sources);
  }

  /** `entry` names the kind (`'tool'`), the server's own name and the qualified name asked for. */
  #claim(
    server: string,
    entry: { what: string; original: string; name: string },
    taken: Map<string, { server: string }>,
  ): string | undefined {
    const { what, original, name } = entry;
    if (!isValidName(name))
      return this.#issue(server, `${what} '${original}' gets the invalid name '${name}'; left out`);
    const holder = taken.get(name);
    if (holder) {
      const by = holder.server === server ? 'another of its own' : `server '${holder.server}'`;
      return this.#issue(
        server,
        `${what} '${original}' is named '${name}' after namespacing, like ${by}; left out`,
      );
    }
    return name;
  }

  #issue(server: string, message: string): undefined {
    const list = this.issues.get(server) ?? [];
    list.push(message);
    this.issues.set(server, list);
    return undefined;
  }

  #addResources(sources: readonly RegistrySource[]): void {
    const owners = countOwners(sources, (l) => l.resources.map((r) => r.uri));
    for (const { name: server, lists } of sources) {
      for (const resource of lists.resources) {
        const shared = (owners.get(resource.uri) ?? 0) > 1;
        const uri = resource.uri.startsWith('ui://')
          ? frontUiUri(server, resource.uri)
          : shared
            ? qualifyUri(server, resource.uri)
            : resource.uri;
        this.#addResource({ uri, server, originalUri: resource.uri, definition: { ...resource, uri } });
      }
      this.#addViews(server, lists);
    }
  }

  #addResource(entry: HostResource): void {
    this.resources.set(entry.uri, entry);
    this.#resourceKeys.set(resourceUriKey(entry.uri), entry);
  }

  /** The views tools name that the server did not list (the spec lets it leave them out). */
  #addViews(server: string, lists: ServerLists): void {
    for (const tool of lists.tools) {
      const original = toolUiOf(tool).resourceUri;
      if (original === undefined) continue;
      const uri = frontUiUri(server, original);
      if (this.resources.has(uri)) continue;
      const definition = { uri, name: uri, mimeType: APP_MIME_TYPE };
      this.#addResource({ uri, server, originalUri: original, definition });
    }
  }

  #addTemplates(sources: readonly RegistrySource[]): void {
    const owners = countOwners(sources, (l) => l.templates.map((t) => t.uriTemplate));
    for (const { name: server, lists } of sources)
      for (const template of lists.templates) {
        const shared = (owners.get(template.uriTemplate) ?? 0) > 1;
        const uriTemplate = shared ? qualifyUri(server, template.uriTemplate) : template.uriTemplate;
        let matcher: UriTemplate;
        try {
          matcher = compileUriTemplate(template.uriTemplate);
        } catch {
          this.#issue(server, `resource template '${template.uriTemplate}' cannot be parsed; left out`);
          continue;
        }
        const definition = { ...template, uriTemplate };
        this.templates.push({
          uriTemplate,
          server,
          originalTemplate: template.uriTemplate,
          definition,
          matcher,
        });
      }
  }

  /**
   * The server and its own URI for a URI of the merged registry: a listed resource (either
   * spelling, as the server compares them), a
   * `server+uri` prefix, or the first template that matches.
   */
  route(uri: string, servers: readonly string[]): { server: string; uri: string } | undefined {
    const listed = this.resources.get(uri) ?? this.#resourceKeys.get(resourceUriKey(uri));
    if (listed) return { server: listed.server, uri: listed.originalUri };
    const plus = uri.indexOf(URI_SEPARATOR);
    const prefix = plus > 0 ? uri.slice(0, plus).toLowerCase() : undefined;
    const server = prefix === undefined ? undefined : servers.find((s) => uriPrefix(s) === prefix);
    const own = server === undefined ? undefined : unqualifyUri(server, uri);
    if (own !== undefined) return { server: server!, uri: own };
    const template = this.templates.find((t) => t.matcher.match(uri) !== undefined);
    return template && { server: template.server, uri };
  }
}

function countOwners(
  sources: readonly RegistrySource[],
  keys: (lists: ServerLists) => string[],
): Map<string, number> {
  const owners = new Map<string, number>();
  for (const { lists } of sources)
    for (const key of new Set(keys(lists))) owners.set(key, (owners.get(key) ?? 0) + 1);
  return owners;
}
