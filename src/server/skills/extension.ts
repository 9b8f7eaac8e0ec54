/**
 * The Skills extension on the seam: `skills/list` (paginated), `skills/get` and
 * `resources/directory/read` over a {@link SkillCatalogue}, declared with
 * `directoryRead: true`, and the skill files served as ordinary resources through the
 * `skill://{+path}` template (so a client without the extension can still read them).
 * Clients need not declare the extension: the SEP gates the methods on the server's
 * declaration only. Unknown skills, directories and files are -32602 with the URI named;
 * a URI with `..`, `.` or empty segments, a backslash or a control character is refused.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Capability Negotiation",
 * "Listing Skills", "Getting a Skill", "Reading Skill Content", "Reading Directories",
 * "Error Handling".
 */
import {
  WireError,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
  type BlobResourceContents,
  type TextResourceContents,
} from '../../core/index.js';
import { SKILLS_EXTENSION, unsafeSkillPath } from '../../core/skills.js';
import { defineExtension } from '../extension.js';
import { paginate } from '../pagination.js';
import type { SkillCatalogue } from './catalogue.js';

/** Options of {@link skillsExtension}. */
export interface SkillsOptions {
  /** Entries per `skills/list` page and children per directory page (default 100). */
  pageSize?: number;
}

/**
 * The extension serving `catalogue` (or the catalogue once its promise settles, so a
 * synchronous server definition may load one): pass it to `createServer({ extensions })`
 * or `server.use(...)`. Its `setup` registers the `skill://{+path}` resource template.
 */
export function skillsExtension(
  loading: SkillCatalogue | Promise<SkillCatalogue>,
  options: SkillsOptions = {},
) {
  const size = options.pageSize ?? 100;
  const ready = Promise.resolve(loading);
  ready.catch(() => undefined); // a failed load is reported by every request that needs it
  return defineExtension({
    id: SKILLS_EXTENSION,
    // Beta: the Skills specification sits in ext-skills specification/beta/ (SEP-3392).
    stage: 'beta',
    settings: { directoryRead: true },
    requiresNegotiation: false,
    // The SEP makes list and get cacheable; the official SDK 2.4 client also wants the cache fields on directory reads.
    cacheable: ['skills/list', 'skills/get', 'resources/directory/read'],
    setup: (server) => {
      server.resourceTemplate(
        'skill://{+path}',
        {
          name: 'skill-files',
          description: 'Files of the skills this server serves',
          mimeType: 'text/markdown',
        },
        async (uri) => [readSkillFile(await ready, uri)],
      );
    },
    methods: {
      'skills/list': async (params: { cursor?: unknown }): Promise<ListSkillsResult> => {
        const catalogue = await ready;
        const page = paginate('skills', catalogue.entries, params.cursor, size);
        return page.nextCursor === undefined
          ? { skills: [...page.items] }
          : { skills: [...page.items], nextCursor: page.nextCursor };
      },
      'skills/get': async (params: { uri?: unknown }): Promise<GetSkillResult> => {
        const uri = checkedUri(params.uri);
        const skill = (await ready).get(uri);
        if (!skill) throw WireError.of('InvalidParams', `No skill is served at ${uri}`, { uri });
        return { skill };
      },
      'resources/directory/read': async (params: {
        uri?: unknown;
        cursor?: unknown;
      }): Promise<ReadResourceDirectoryResult> => {
        const uri = checkedUri(params.uri);
        const children = (await ready).directory(uri);
        if (!children) throw WireError.of('InvalidParams', `${uri} is not a directory resource`, { uri });
        const page = paginate(`dir ${uri}`, children, params.cursor, size);
        return page.nextCursor === undefined
          ? { resources: [...page.items] }
          : { resources: [...page.items], nextCursor: page.nextCursor };
      },
    },
  });
}

/**
 * The URI a client sent, refused when it is not a string or its path is unsafe.
 * @throws WireError -32602.
 */
function checkedUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length > 4096)
    throw WireError.of('InvalidParams', 'uri must be a string of at most 4096 characters');
  const path = uri.startsWith('skill://') ? uri.slice('skill://'.length) : undefined;
  if (path === undefined) return uri;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw WireError.of('InvalidParams', `${uri} is not a valid skill URI (bad percent-encoding)`, { uri });
  }
  const unsafe = unsafeSkillPath(decoded);
  if (unsafe) throw WireError.of('InvalidParams', `Refused ${uri}: its path ${unsafe}`, { uri });
  return uri;
}

/** One skill file as `resources/read` contents: text when it is UTF-8 text, else a base64 blob. */
function readSkillFile(catalogue: SkillCatalogue, uri: string): TextResourceContents | BlobResourceContents {
  const file = catalogue.file(checkedUri(uri));
  if (!file) throw WireError.of('InvalidParams', `Resource not found: ${uri}`, { uri });
  const text = textOf(file.bytes, file.mimeType);
  return text === undefined
    ? { uri, mimeType: file.mimeType, blob: base64(file.bytes) }
    : { uri, mimeType: file.mimeType, text };
}

function textOf(bytes: Uint8Array, mimeType: string): string | undefined {
  if (mimeType === 'application/octet-stream') return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
