/**
 * The host side of the Skills extension over a {@link Client}: list and get skill entries
 * (each checked: URI ending in its name, frontmatter, digests, the per-skill limits), read
 * one file of a skill verified against the entry (listed, size, SHA-256, and for `SKILL.md`
 * the frontmatter field by field), and download a whole skill that way. Unverified bytes
 * are never returned: a mismatch is LocalError `INVALID_RESULT` naming the file.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Skill Entries", "Limits",
 * "Integrity and Verification", "Relative References", "Capability Negotiation".
 */
import { isDeepStrictEqual } from './deep-equal.js';
import {
  LocalError,
  type Params,
  type RequestOptions,
  type Skill,
  type SkillResource,
} from '../core/index.js';
import {
  SKILLS_EXTENSION,
  SKILL_LIMITS,
  frontmatterBlock,
  isSkillName,
  skillDigest,
  unsafeSkillPath,
} from '../core/skills.js';
import type { Client } from './client.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A file of a skill, verified against its entry. */
export interface SkillFile {
  uri: string;
  /** The path within the skill (`SKILL.md`, `references/GUIDE.md`). */
  path: string;
  bytes: Uint8Array;
  mimeType?: string;
}

/** Options of {@link readSkillFile}: the path within the skill (default `SKILL.md`) and the request's options. */
export interface SkillReadOptions extends RequestOptions {
  path?: string;
}

/** Options of {@link listSkills}. */
export interface ListSkillsOptions extends RequestOptions {
  /** Most pages fetched (default 100). */
  maxPages?: number;
}

/** Entries of `skills/list`: the valid ones, and those refused with the reason. */
export interface SkillListing {
  skills: Skill[];
  invalid: { entry: unknown; reason: string }[];
}

/**
 * Every skill the server lists (all pages; an entry that breaks the SEP's rules goes to
 * `invalid`, never to `skills`).
 * @throws LocalError `MISSING_CAPABILITY` when the server does not declare the extension;
 *   `LIMIT_EXCEEDED` past `maxPages`.
 */
export async function listSkills(client: Client, options: ListSkillsOptions = {}): Promise<SkillListing> {
  await requireSkills(client, options);
  const listing: SkillListing = { skills: [], invalid: [] };
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= (options.maxPages ?? 100))
      throw new LocalError('LIMIT_EXCEEDED', `skills/list has more than ${options.maxPages ?? 100} pages`);
    const result = await client.request('skills/list', cursor === undefined ? {} : { cursor }, options);
    for (const entry of Array.isArray(result.skills) ? (result.skills as unknown[]) : []) {
      const reason = entryProblem(entry);
      if (reason) listing.invalid.push({ entry, reason });
      else listing.skills.push(entry as Skill);
    }
    if (typeof result.nextCursor !== 'string') return listing;
    cursor = result.nextCursor;
  }
}

/**
 * The entry of the skill whose `SKILL.md` is at `uri` (`skills/get`).
 * @throws LocalError `INVALID_RESULT` for an entry that breaks the rules or names another URI.
 */
export async function getSkill(client: Client, uri: string, options?: RequestOptions): Promise<Skill> {
  await requireSkills(client, options);
  const { skill } = await client.request('skills/get', { uri }, options);
  const reason = entryProblem(skill) ?? (skill.uri === uri ? undefined : `names ${String(skill.uri)}`);
  if (reason) throw new LocalError('INVALID_RESULT', `skills/get ${uri}: the entry ${reason}`);
  return skill;
}

/**
 * One file of `skill`, by a path relative to the skill's root (`references/GUIDE.md`,
 * default `SKILL.md`; or options with `path`), read with `resources/read` and verified against the entry.
 * @throws LocalError `INVALID_ARGUMENT` for an unsafe or unlisted path; `INVALID_RESULT`
 *   for content whose size, digest or frontmatter differs from the entry.
 */
export async function readSkillFile(
  client: Client,
  skill: Skill,
  file: string | SkillReadOptions = 'SKILL.md',
): Promise<SkillFile> {
  const { path = 'SKILL.md', ...options } = typeof file === 'string' ? { path: file } : file;
  const unsafe = unsafeSkillPath(path);
  if (unsafe) throw new LocalError('INVALID_ARGUMENT', `skill file path '${path}' ${unsafe}`);
  const uri = `${rootOf(skill.uri)}/${path.split('/').map(encodeURIComponent).join('/')}`;
  const listed = Array.isArray(skill.resources) ? skill.resources.find((r) => r.uri === uri) : undefined;
  if (Array.isArray(skill.resources) && !listed)
    throw new LocalError('INVALID_ARGUMENT', `${uri} is not a file of ${skill.uri} (not in its entry)`);
  const result = await client.readResource(uri, options);
  const contents = result.contents as unknown as Params[];
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  const bytes = bytesOf(content);
  if (listed) await verify(bytes, listed);
  if (path === 'SKILL.md') await checkFrontmatter(bytes, skill);
  const read: SkillFile = { uri, path, bytes };
  if (typeof content?.mimeType === 'string') read.mimeType = content.mimeType;
  return read;
}

/**
 * Every file of `skill`, each verified (see {@link readSkillFile}), `SKILL.md` first.
 * @throws LocalError `INVALID_ARGUMENT` for a `"dynamic"` skill (no manifest to verify
 *   against) or one over the per-skill limits; as {@link readSkillFile} otherwise.
 */
export async function downloadSkill(
  client: Client,
  skill: Skill,
  options?: RequestOptions,
): Promise<SkillFile[]> {
  if (!Array.isArray(skill.resources))
    throw new LocalError('INVALID_ARGUMENT', `${skill.uri} is dynamic: it has no manifest to verify against`);
  const root = `${rootOf(skill.uri)}/`;
  const files: SkillFile[] = [];
  for (const r of skill.resources) {
    const path = r.uri.slice(root.length).split('/').map(decodeURIComponent).join('/');
    files.push(await readSkillFile(client, skill, { ...options, path }));
  }
  return files;
}

async function requireSkills(client: Client, options: RequestOptions | undefined): Promise<void> {
  if (client.serverCapabilities === undefined && client.era === 'modern') await client.discover(options);
  if (client.serverExtension(SKILLS_EXTENSION) === undefined)
    throw new LocalError('MISSING_CAPABILITY', `the server does not declare ${SKILLS_EXTENSION}`);
}

/** The skill's root directory URI: its `SKILL.md` URI without `/SKILL.md`. */
function rootOf(uri: string): string {
  return uri.slice(0, -'/SKILL.md'.length);
}

/** Why `entry` is not a loadable skill entry, or undefined when it is. */
function entryProblem(entry: unknown): string | undefined {
  const e = entry as Partial<Skill> | null;
  if (typeof e !== 'object' || e === null || typeof e.uri !== 'string') return 'has no uri';
  if (!e.uri.endsWith('/SKILL.md')) return 'uri does not end in /SKILL.md';
  const name = decodeURIComponent(rootOf(e.uri).slice(rootOf(e.uri).lastIndexOf('/') + 1));
  const fm = e.frontmatter;
  if (typeof fm !== 'object' || fm === null || typeof fm.description !== 'string')
    return 'has no frontmatter description';
  if (!isSkillName(fm.name) || fm.name !== name)
    return `frontmatter name is not the last path segment '${name}'`;
  if (e.resources === 'dynamic') return undefined;
  if (!Array.isArray(e.resources)) return 'resources is neither an array nor "dynamic"';
  return manifestProblem(e.uri, e.resources);
}

function manifestProblem(uri: string, resources: unknown[]): string | undefined {
  if (resources.length > SKILL_LIMITS.maxFiles) return `lists more than ${SKILL_LIMITS.maxFiles} files`;
  const root = `${rootOf(uri)}/`;
  const seen = new Set<string>();
  let total = 0;
  for (const r of resources as Partial<SkillResource>[]) {
    if (typeof r?.uri !== 'string' || !r.uri.startsWith(root)) return 'lists a file outside the skill';
    if (seen.has(r.uri)) return `lists ${r.uri} twice`;
    seen.add(r.uri);
    if (typeof r.digest !== 'string' || !DIGEST.test(r.digest)) return `has a malformed digest for ${r.uri}`;
    if (!Number.isSafeInteger(r.size) || r.size! < 0) return `has a malformed size for ${r.uri}`;
    total += r.size!;
  }
  if (!seen.has(uri)) return 'does not list its SKILL.md';
  if (total > SKILL_LIMITS.maxTotalBytes) return `is larger than ${SKILL_LIMITS.maxTotalBytes} bytes`;
  return undefined;
}

function bytesOf(content: Params | undefined): Uint8Array {
  if (typeof content?.text === 'string') return new TextEncoder().encode(content.text);
  if (typeof content?.blob === 'string') return Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  throw new LocalError('INVALID_RESULT', 'resources/read returned no text or blob for the skill file');
}

async function verify(bytes: Uint8Array, listed: SkillResource): Promise<void> {
  if (bytes.byteLength !== listed.size)
    throw new LocalError(
      'INVALID_RESULT',
      `${listed.uri}: ${bytes.byteLength} bytes, the entry says ${listed.size}`,
    );
  if ((await skillDigest(bytes)) !== listed.digest)
    throw new LocalError('INVALID_RESULT', `${listed.uri}: the SHA-256 digest differs from the entry`);
}

async function checkFrontmatter(bytes: Uint8Array, skill: Skill): Promise<void> {
  const block = frontmatterBlock(new TextDecoder().decode(bytes));
  // Loaded on first use: importing mcpkit/client loads no dependency.
  const { parse } = await import('yaml');
  let fields: unknown;
  try {
    fields =
      block === undefined ? undefined : JSON.parse(JSON.stringify(parse(block, { maxAliasCount: 100 })));
  } catch {
    fields = undefined;
  }
  if (!isDeepStrictEqual(fields, skill.frontmatter))
    throw new LocalError('INVALID_RESULT', `${skill.uri}: its frontmatter differs from the entry's`);
}
