/**
 * The Skills extension's wire types (`io.modelcontextprotocol/skills`): skill entries with
 * their file manifests, and the params and results of `skills/list`, `skills/get` and
 * `resources/directory/read`, merged into `ExtensionRequestMap` so requests are typed.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Skill Entries",
 * "Listing Skills", "Getting a Skill", "Reading Directories".
 */
import type { Resource } from './content.js';

/** One file of a skill: its URI, `sha256:{64 lowercase hex}` of its raw bytes, and its length in bytes. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A skill's `SKILL.md` YAML frontmatter as JSON, verbatim; `name` and `description` always present. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** The entry of one skill: the URI of its `SKILL.md`, its frontmatter, and its complete file list or `"dynamic"`. */
export interface Skill {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | 'dynamic';
}

/** The server's settings of the extension: `directoryRead` when it serves `resources/directory/read`. */
export interface SkillsSettings {
  directoryRead?: boolean;
}

/** Params of `skills/list` (paginated). */
export interface ListSkillsParams {
  cursor?: string;
}

/** Result of `skills/list`: entries, a cursor when more follow, and (modern) the cache fields. */
export interface ListSkillsResult {
  skills: Skill[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  resultType?: 'complete';
}

/** Params of `skills/get`: the URI of a skill's `SKILL.md`. */
export interface GetSkillParams {
  uri: string;
}

/** Result of `skills/get`. */
export interface GetSkillResult {
  skill: Skill;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  resultType?: 'complete';
}

/** Params of `resources/directory/read`: a directory resource's URI (no trailing slash), paginated. */
export interface ReadResourceDirectoryParams {
  uri: string;
  cursor?: string;
}

/** Result of `resources/directory/read`: the direct children (subdirectories as `inode/directory`). */
export interface ReadResourceDirectoryResult {
  resources: Resource[];
  nextCursor?: string;
  resultType?: 'complete';
}
