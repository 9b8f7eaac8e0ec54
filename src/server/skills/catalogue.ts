/**
 * A catalogue of skills read once from storage (a folder through `mcpkit/node`, or files
 * given in code): every directory holding a `SKILL.md` is a skill, its entry lists every
 * file under it with digest and size, and the bytes are held so a read serves exactly
 * what the entry describes. A skill that breaks a rule (frontmatter, name, a symlink or
 * special file, an unsafe path, the 512-file or 16 MiB limit) is refused with a reason,
 * and so is one whose URIs name the resources of another (`Acme/refunds` beside
 * `acme/refunds`: the first segment is the URI's host, compared case-insensitively). Skills,
 * files and directories are found by any spelling of their URI, as resources are
 * (resource-uri.ts): `skill://git-workflow/SKILL%2Emd` is `skill://git-workflow/SKILL.md`.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Skill Format", "Resource
 * Mapping", "Skill Entries", "Limits", "Nested Skills", "Directory Resources".
 */
import { LocalError, type Resource, type Skill } from '../../core/index.js';
import { DIRECTORY_MIME_TYPE, SKILL_LIMITS, skillDigest, unsafeSkillPath } from '../../core/skills.js';
import { resourceUriKey } from '../resource-uri.js';
import { frontmatterOf, SkillRuleError } from './frontmatter.js';

/** One entry of a storage directory; `other` is a symlink or special file, which is refused. */
export interface SkillFileEntry {
  name: string;
  kind: 'file' | 'directory' | 'other';
}

/** Storage of a catalogue: relative `/`-separated paths, `''` the root. */
export interface SkillFiles {
  list(dir: string): Promise<SkillFileEntry[]>;
  /** The file's bytes. @throws when it holds more than `maxBytes` (the caller's remaining budget). */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
}

/** Options of {@link SkillCatalogue.load}. */
export interface SkillCatalogueOptions {
  /** Most files per skill (default 512, the SEP's limit). */
  maxFiles?: number;
  /** Most bytes per skill, all files together (default 16 MiB, the SEP's limit). */
  maxSkillBytes?: number;
  /** Most bytes the whole catalogue holds (default 256 MiB). */
  maxCatalogueBytes?: number;
  /** Deepest directory nesting walked (default 16). */
  maxDepth?: number;
  /** Throw on the first refused skill instead of leaving it out (default false). */
  strict?: boolean;
}

/** A skill left out of the catalogue, and why. */
export interface SkillProblem {
  path: string;
  reason: string;
}

interface HeldFile {
  bytes: Uint8Array;
  mimeType: string;
}

const MIME: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/x-typescript',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  csv: 'text/csv',
};

/** The MIME type of a skill file from its extension (`application/octet-stream` when unknown). */
function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const ext = dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MIME, ext) ? MIME[ext]! : 'application/octet-stream';
}

/** `skill://` plus the path, each segment percent-encoded. */
function skillUri(path: string): string {
  return `skill://${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The skills of one catalogue; see the module comment. */
export class SkillCatalogue {
  readonly problems: readonly SkillProblem[];
  readonly #entries: readonly Skill[];
  readonly #byUri: ReadonlyMap<string, Skill>;
  readonly #files: ReadonlyMap<string, HeldFile>;
  readonly #dirs: ReadonlyMap<string, Resource[]>;

  private constructor(found: Found) {
    this.problems = Object.freeze(found.problems);
    this.#entries = Object.freeze([...found.skills].sort((a, b) => (a.uri < b.uri ? -1 : 1)));
    this.#byUri = new Map(this.#entries.map((s) => [resourceUriKey(s.uri), s]));
    this.#files = new Map([...found.files].map(([uri, file]) => [resourceUriKey(uri), file]));
    const dirs = directoriesOf(found.files, this.#entries);
    this.#dirs = new Map([...dirs].map(([uri, children]) => [resourceUriKey(uri), children]));
  }

  /**
   * Walks `files` and builds the catalogue.
   * @throws LocalError `INVALID_DEFINITION` under `strict` for the first refused skill;
   *   `LIMIT_EXCEEDED` when the catalogue would hold more than `maxCatalogueBytes`.
   */
  static async load(files: SkillFiles, options: SkillCatalogueOptions = {}): Promise<SkillCatalogue> {
    const found = await new Walker(files, options).run();
    return new SkillCatalogue(found);
  }

  /**
   * A catalogue of skills given in code: `{ 'git-workflow': { 'SKILL.md': '---\n…' } }`,
   * keyed by skill path, then by file path within the skill.
   */
  static fromFiles(
    skills: Record<string, Record<string, string | Uint8Array>>,
    options: SkillCatalogueOptions = {},
  ): Promise<SkillCatalogue> {
    return SkillCatalogue.load(memorySkillFiles(skills), options);
  }

  /** The entries, sorted by URI (frozen: what clients receive). */
  get entries(): readonly Skill[] {
    return this.#entries;
  }

  /** The entry whose `SKILL.md` is at `uri` (any spelling of it). */
  get(uri: string): Skill | undefined {
    return this.#byUri.get(resourceUriKey(uri));
  }

  /** A held file by URI (any spelling of it): its bytes and MIME type. */
  file(uri: string): HeldFile | undefined {
    return this.#files.get(resourceUriKey(uri));
  }

  /**
   * The direct children of the directory resource at `uri` (any spelling of it), or
   * undefined when it is not one.
   */
  directory(uri: string): readonly Resource[] | undefined {
    return this.#dirs.get(resourceUriKey(uri));
  }
}

interface Found {
  skills: Skill[];
  problems: SkillProblem[];
  files: Map<string, HeldFile>;
}

/** One walk of a catalogue's storage. */
class Walker {
  readonly #files: SkillFiles;
  readonly #o: Required<SkillCatalogueOptions>;
  readonly #found: Found = { skills: [], problems: [], files: new Map() };
  /** The skill directory of each accepted `SKILL.md`, by its URI's key. */
  readonly #keys = new Map<string, string>();
  #held = 0;

  constructor(files: SkillFiles, options: SkillCatalogueOptions) {
    this.#files = files;
    this.#o = {
      maxFiles: options.maxFiles ?? SKILL_LIMITS.maxFiles,
      maxSkillBytes: options.maxSkillBytes ?? SKILL_LIMITS.maxTotalBytes,
      maxCatalogueBytes: options.maxCatalogueBytes ?? 256 * 1024 * 1024,
      maxDepth: options.maxDepth ?? 16,
      strict: options.strict ?? false,
    };
  }

  async run(): Promise<Found> {
    await this.#visit('', 0);
    return this.#found;
  }

  async #visit(dir: string, depth: number): Promise<void> {
    if (depth > this.#o.maxDepth)
      return this.#refuse(dir, `is nested deeper than ${this.#o.maxDepth} directories`);
    const entries = await this.#files.list(dir);
    if (dir !== '' && entries.some((e) => e.name === 'SKILL.md' && e.kind === 'file')) await this.#skill(dir);
    for (const entry of entries)
      if (entry.kind === 'directory' && unsafeSkillPath(entry.name) === undefined)
        await this.#visit(dir === '' ? entry.name : `${dir}/${entry.name}`, depth + 1);
  }

  /** Builds one skill's entry, or records why it is refused. */
  async #skill(dir: string): Promise<void> {
    try {
      const key = resourceUriKey(skillUri(`${dir}/SKILL.md`));
      const other = this.#keys.get(key);
      if (other !== undefined)
        throw new SkillRefused(
          `has the URIs of skill '${other}' (the first path segment is a URI host: case does not count)`,
        );
      const paths = await this.#collect(dir, '', []);
      const read = await this.#readAll(dir, paths);
      const skillMd = read.get('SKILL.md')!;
      const name = dir.slice(dir.lastIndexOf('/') + 1);
      const frontmatter = await frontmatterOf(skillMd, name);
      const resources = [];
      for (const [path, bytes] of read) {
        const uri = skillUri(`${dir}/${path}`);
        resources.push({ uri, digest: await skillDigest(bytes), size: bytes.byteLength });
        this.#found.files.set(uri, { bytes, mimeType: mimeTypeOf(path) });
      }
      this.#found.skills.push({ uri: skillUri(`${dir}/SKILL.md`), frontmatter, resources });
      this.#keys.set(key, dir);
    } catch (error) {
      if (!(error instanceof SkillRefused || error instanceof SkillRuleError || error instanceof TypeError))
        throw error;
      this.#refuse(dir, error.message);
    }
  }

  /** Every file path under the skill, refusing what may not be served. */
  async #collect(root: string, sub: string, out: string[]): Promise<string[]> {
    if (sub !== '' && sub.split('/').length > this.#o.maxDepth)
      throw new SkillRefused(`'${sub}' is nested too deep`);
    for (const entry of await this.#files.list(sub === '' ? root : `${root}/${sub}`)) {
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      const unsafe = unsafeSkillPath(entry.name);
      if (unsafe) throw new SkillRefused(`file name '${path}' ${unsafe}`);
      if (entry.kind === 'other') throw new SkillRefused(`'${path}' is a symlink or special file`);
      if (entry.kind === 'directory') await this.#collect(root, path, out);
      else out.push(path);
      if (out.length > this.#o.maxFiles)
        throw new SkillRefused(`has more than ${this.#o.maxFiles} files (the per-skill limit)`);
    }
    return out;
  }

  async #readAll(dir: string, paths: string[]): Promise<Map<string, Uint8Array>> {
    const read = new Map<string, Uint8Array>();
    let total = 0;
    for (const path of ['SKILL.md', ...paths.filter((p) => p !== 'SKILL.md').sort()]) {
      const left = this.#o.maxSkillBytes - total;
      const bytes = await this.#files.read(`${dir}/${path}`, left).catch((error: unknown) => {
        throw new SkillRefused(`'${path}' could not be read: ${(error as Error).message}`);
      });
      total += bytes.byteLength;
      if (total > this.#o.maxSkillBytes)
        throw new SkillRefused(`is larger than ${this.#o.maxSkillBytes} bytes (the per-skill limit)`);
      read.set(path, bytes);
    }
    this.#held += total;
    if (this.#held > this.#o.maxCatalogueBytes)
      throw new LocalError(
        'LIMIT_EXCEEDED',
        `the skill catalogue exceeds ${this.#o.maxCatalogueBytes} bytes`,
      );
    return read;
  }

  #refuse(path: string, reason: string): void {
    if (this.#o.strict) throw new LocalError('INVALID_DEFINITION', `skill '${path}' ${reason}`);
    this.#found.problems.push({ path, reason });
  }
}

/** Why one skill is left out (caught by the walker, never thrown to the caller). */
class SkillRefused extends Error {}

/** Each directory resource (skill roots, their subdirectories, and the prefixes above them) with its children. */
function directoriesOf(
  files: ReadonlyMap<string, HeldFile>,
  skills: readonly Skill[],
): Map<string, Resource[]> {
  const dirs = new Map<string, Map<string, Resource>>();
  const add = (parent: string, child: Resource): void => {
    let children = dirs.get(parent);
    if (!children) dirs.set(parent, (children = new Map()));
    children.set(child.uri, child);
  };
  const addPath = (uri: string, leaf: Resource): void => {
    let child = leaf;
    let at = uri;
    for (;;) {
      const slash = at.lastIndexOf('/');
      if (slash <= 'skill://'.length - 1) return;
      const parent = at.slice(0, slash);
      add(parent, child);
      const name = decodeURIComponent(parent.slice(parent.lastIndexOf('/') + 1));
      child = { uri: parent, name, mimeType: DIRECTORY_MIME_TYPE };
      at = parent;
    }
  };
  for (const skill of skills)
    if (Array.isArray(skill.resources))
      for (const r of skill.resources) {
        const name = decodeURIComponent(r.uri.slice(r.uri.lastIndexOf('/') + 1));
        addPath(r.uri, { uri: r.uri, name, mimeType: files.get(r.uri)!.mimeType, size: r.size });
      }
  return new Map([...dirs].map(([uri, children]) => [uri, [...children.values()]]));
}

/** Storage over files given in code (see {@link SkillCatalogue.fromFiles}). */
function memorySkillFiles(skills: Record<string, Record<string, string | Uint8Array>>): SkillFiles {
  const all = new Map<string, Uint8Array>();
  for (const [skill, files] of Object.entries(skills))
    for (const [path, content] of Object.entries(files))
      all.set(`${skill}/${path}`, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  return {
    list: (dir) => Promise.resolve(listMemory(all, dir)),
    read: (path, maxBytes) => {
      const bytes = all.get(path);
      if (!bytes) return Promise.reject(new Error('no such file'));
      if (bytes.byteLength > maxBytes)
        return Promise.reject(new Error(`${bytes.byteLength} bytes is over the bound of ${maxBytes}`));
      return Promise.resolve(bytes);
    },
  };
}

function listMemory(all: ReadonlyMap<string, Uint8Array>, dir: string): SkillFileEntry[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  const out = new Map<string, SkillFileEntry>();
  for (const path of all.keys()) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    const name = slash < 0 ? rest : rest.slice(0, slash);
    out.set(name, { name, kind: slash < 0 ? 'file' : 'directory' });
  }
  return [...out.values()];
}
