/**
 * What one server serves: its own registrations, the catalogues of the servers mounted on
 * it, and its transforms, compiled once per change (of its registries, of a mounted
 * server's catalogue, of its transforms) and read by every request. With nothing mounted
 * and no transform, it is the server's own registries as they are.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources.
 */
import { LocalError } from '../../core/index.js';
import { methodFacts, targetOf } from '../../core/runtime.js';
import type { PromptRegistry } from '../prompts.js';
import type { ResourceRegistry } from '../resources.js';
import type { ToolRegistry } from '../tools.js';
import { CompiledCatalogue, type ListKind } from './compiled.js';
import type { MountNames } from './mount.js';
import { resourceUriKey } from '../resource-uri.js';
import type { Caller, Catalogue, Transform } from './types.js';

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
    const c = this.compiled().catalogue;
    return [...c.tools, ...c.prompts, ...c.resources].some((e) => (e.scopes?.length ?? 0) > 0);
  }

  /**
   * The scopes the entry a request names needs: the tool, prompt or resource its target
   * (core/methods.ts: a `name` or a `uri`) names, for a method of that feature.
   */
  requiredScopes(method: string, params: unknown): readonly string[] | undefined {
    const facts = methodFacts(method);
    const target = targetOf(method, (params ?? undefined) as object | undefined);
    if (typeof target !== 'string' || facts === undefined) return undefined;
    const c = this.compiled();
    if (facts.feature === 'tools') return c.tools.get(target)?.entry.scopes;
    if (facts.feature === 'prompts') return c.prompts.get(target)?.scopes;
    if (facts.feature === 'resources') return c.resources.get(resourceUriKey(target))?.scopes;
    return undefined;
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
