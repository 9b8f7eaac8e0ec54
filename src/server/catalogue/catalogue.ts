/**
 * What one server serves: its own registrations, the catalogues of the servers mounted on
 * it, and its transforms, compiled once per change (of its registries, of a mounted
 * server's catalogue, of its transforms) and read by every request. With nothing mounted
 * and no transform, it is the server's own registries as they are.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources.
 */
import { LocalError } from '../../core/index.js';
import { uriPrefix } from '../../core/runtime.js';
import type { PromptRegistry } from '../prompts.js';
import type { ResourceRegistry } from '../resources.js';
import type { ToolRegistry } from '../tools.js';
import { CompiledCatalogue, type ListKind } from './compiled.js';
import type { MountNames } from './mount.js';
import { isVisible, type Caller, type Catalogue, type Transform } from './types.js';

/** What a request needs: scopes, nothing (undefined), or that once a template is matched. */
export type Needed = readonly string[] | undefined | Promise<readonly string[] | undefined>;

/** A server mounted on another: its catalogue, its transforms and its names there. */
export interface Mounted {
  readonly names: MountNames;
  readonly catalogue: ServerCatalogue;
  readonly transforms: readonly Transform[];
}

/** The own registries a catalogue starts from. */
export interface OwnRegistries {
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
}

/** See the module comment. */
export class ServerCatalogue {
  readonly #own: OwnRegistries;
  readonly #mounts: Mounted[] = [];
  readonly #transforms: Transform[] = [];
  #changes = 0;
  #built: { revision: number; compiled: CompiledCatalogue } | undefined;
  #scopes: { revision: number; scopes: readonly string[] } | undefined;
  /** Interned entry identities for view fingerprints (see CompiledCatalogue.fingerprint). */
  readonly #ids = new WeakMap<object, number>();

  constructor(own: OwnRegistries) {
    this.#own = own;
  }

  /** True once something is mounted or transformed: the registries alone no longer answer. */
  get composed(): boolean {
    return this.#mounts.length > 0 || this.#transforms.length > 0;
  }

  /** Changes whenever what this catalogue serves may have changed (here or in a mounted server). */
  get revision(): number {
    const own = this.#own;
    let r = own.tools.revision + own.prompts.revision + own.resources.revision + this.#changes;
    for (const m of this.#mounts) r += m.catalogue.revision;
    return r;
  }

  /** The compiled catalogue, rebuilt when {@link revision} moved. */
  compiled(): CompiledCatalogue {
    const revision = this.revision;
    if (this.#built?.revision === revision) return this.#built.compiled;
    const compiled = new CompiledCatalogue(this.#build());
    this.#built = { revision, compiled };
    return compiled;
  }

  /**
   * Mounts a server's catalogue. @throws LocalError `INVALID_DEFINITION` when its names or
   * URIs collide with what is served already, or one of its transforms cannot apply
   * (nothing is mounted then).
   */
  mount(mounted: Mounted): void {
    const { prefix } = mounted.names;
    const clash = this.#mounts.find(
      (m) => m.names.prefix !== prefix && prefix !== '' && uriPrefix(m.names.prefix) === uriPrefix(prefix),
    );
    if (clash)
      throw new LocalError(
        'INVALID_DEFINITION',
        `mount '${prefix}': its resource URIs would start '${uriPrefix(prefix)}+', as those of mount '${clash.names.prefix}' do; choose prefixes that differ in more than case and punctuation`,
      );
    this.#attempt(
      () => this.#mounts.push(mounted),
      () => this.#mounts.pop(),
    );
  }

  /** Adds transforms, applied in order after the previous ones. @throws as {@link mount}. */
  transform(transforms: readonly Transform[]): void {
    const before = this.#transforms.length;
    this.#attempt(
      () => this.#transforms.push(...transforms),
      () => this.#transforms.splice(before),
    );
  }

  /**
   * Checks that what is served now compiles without collisions.
   * @throws LocalError `INVALID_DEFINITION` naming the collisions.
   */
  check(what: string): void {
    const collisions = this.compiled().collisions;
    if (collisions.length > 0)
      throw new LocalError('INVALID_DEFINITION', `${what}: ${collisions.join('; ')}`);
  }

  /** True when `other` is this catalogue or one mounted on it, at any depth (a mount must not loop). */
  reaches(other: ServerCatalogue): boolean {
    return other === this || this.#mounts.some((m) => m.catalogue.reaches(other));
  }

  /** True when some entry names OAuth scopes (the scope check must run). */
  get scoped(): boolean {
    return this.featureScopes.length > 0;
  }

  /** Every OAuth scope some entry needs, once each (made once per change). */
  get featureScopes(): readonly string[] {
    const revision = this.revision;
    if (this.#scopes?.revision === revision) return this.#scopes.scopes;
    const c = this.compiled().catalogue;
    const all = [...c.tools, ...c.prompts, ...c.resources, ...c.templates].flatMap((e) => e.scopes ?? []);
    const scopes = [...new Set(all)];
    this.#scopes = { revision, scopes };
    return scopes;
  }

  /**
   * The OAuth scopes a request needs, read off the entries it names, each resolved exactly
   * as serving resolves it (the same maps, keys and template order, hidden entries skipped
   * for `caller`), so that no spelling selects one entry and is checked against another:
   *
   * - `tools/call`: the tool of that name; `prompts/get`: the prompt. Names compare exactly
   *   (case-sensitive, as the spec's names are): another spelling is another, unknown, name;
   * - `resources/read`, `resources/subscribe`: the fixed resource of the URI's key
   *   (resource-uri.ts), else the first template that matches the URI;
   * - `completion/complete`: the prompt of a `ref/prompt`; the template of a `ref/resource`,
   *   else the resource its URI resolves to;
   * - `subscriptions/listen`: every resource its `resourceSubscriptions` filter names.
   *
   * Undefined when nothing is needed; a promise only when a scoped template must be matched.
   */
  requiredScopes(method: string, params: unknown, caller?: Caller): Needed {
    const p = (params ?? {}) as Record<string, unknown>;
    const c = this.compiled();
    switch (method) {
      case 'tools/call':
        return typeof p.name === 'string' ? c.tools.get(p.name)?.entry.scopes : undefined;
      case 'prompts/get':
        return typeof p.name === 'string' ? c.prompts.get(p.name)?.scopes : undefined;
      case 'resources/read':
      case 'resources/subscribe':
        return typeof p.uri === 'string' ? uriScopes(c, p.uri, caller) : undefined;
      case 'completion/complete':
        return refScopes(c, p.ref, caller);
      case 'subscriptions/listen':
        return filterScopes(c, p.notifications, caller);
      default:
        return undefined;
    }
  }

  /** A fingerprint of what `caller` sees of the list of `kind` (equal: same view). */
  fingerprint(kind: ListKind, caller: Caller): string {
    return this.compiled().fingerprint(kind, caller, this.#ids);
  }

  #attempt(change: () => void, undo: () => void): void {
    const hadCollisions = this.composed ? this.compiled().collisions.length : 0;
    change();
    this.#changes++;
    try {
      const { collisions } = this.compiled();
      if (collisions.length > hadCollisions)
        throw new LocalError('INVALID_DEFINITION', `names collide: ${collisions.join('; ')}`);
    } catch (error) {
      undo();
      this.#changes++;
      throw error;
    }
  }

  #build(): Catalogue {
    const own = this.#own;
    const parts: Catalogue[] = [
      {
        tools: own.tools.entries(),
        prompts: own.prompts.entries(),
        ...own.resources.entries(),
      },
    ];
    for (const m of this.#mounts) {
      const child = m.transforms.reduce((c, t) => t(c), m.catalogue.compiled().catalogue);
      parts.push(m.names.qualify(child));
    }
    const merged: Catalogue = {
      tools: parts.flatMap((p) => p.tools),
      prompts: parts.flatMap((p) => p.prompts),
      resources: parts.flatMap((p) => p.resources),
      templates: parts.flatMap((p) => p.templates),
    };
    return this.#transforms.reduce((c, t) => t(c), merged);
  }
}

/** The scopes of the resource `uri` resolves to (see `ServerCatalogue.requiredScopes`). */
function uriScopes(c: CompiledCatalogue, uri: string, caller: Caller | undefined): Needed {
  const fixed = c.fixedResource(uri, caller);
  if (fixed || !c.scopedTemplates) return fixed?.scopes;
  return templatesReady(c).then(() => c.matchTemplate(uri, caller)?.entry.scopes);
}

function refScopes(c: CompiledCatalogue, ref: unknown, caller: Caller | undefined): Needed {
  const r = (ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  if (r.type === 'ref/prompt' && typeof r.name === 'string') return c.prompts.get(r.name)?.scopes;
  if (r.type !== 'ref/resource' || typeof r.uri !== 'string') return undefined;
  const template = c.templates.get(r.uri);
  if (template && (caller === undefined || isVisible(template, caller))) return template.scopes;
  return uriScopes(c, r.uri, caller);
}

function filterScopes(c: CompiledCatalogue, filter: unknown, caller: Caller | undefined): Needed {
  const uris = (filter as { resourceSubscriptions?: unknown } | null | undefined)?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined;
  const each = uris.filter((u): u is string => typeof u === 'string').map((u) => uriScopes(c, u, caller));
  return each.some((s) => s instanceof Promise)
    ? Promise.all(each).then(union)
    : union(each as (readonly string[] | undefined)[]);
}

function union(all: readonly (readonly string[] | undefined)[]): readonly string[] | undefined {
  const scopes = [...new Set(all.flatMap((s) => s ?? []))];
  return scopes.length > 0 ? scopes : undefined;
}

async function templatesReady(c: CompiledCatalogue): Promise<void> {
  for (const t of c.templates.values()) await t.matcher.ready;
}
