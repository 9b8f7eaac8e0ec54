/**
 * `mcpkit/skills`: what both sides of the Skills extension check the same way: the
 * identifier, the per-skill limits, digests, skill names, and the relative paths a skill
 * file may have.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Extension Identifier",
 * "Limits", "Integrity and Verification", "Resource Mapping"; agentskills.io "name field".
 */

/** The extension identifier. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The MIME type of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** The per-skill limits every host accepts: 512 files, 16 MiB (16 777 216 bytes) in total. */
export const SKILL_LIMITS = Object.freeze({ maxFiles: 512, maxTotalBytes: 16 * 1024 * 1024 });

/** `sha256:{hex}` of `bytes` (Web Crypto). */
export async function skillDigest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of hash) hex += b.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** True for a skill name the Agent Skills rules allow: 1–64 lowercase letters, digits and single inner hyphens. */
export function isSkillName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 64 && NAME.test(name);
}

/**
 * Why `path` (a `/`-separated path inside a skill or catalogue) is refused, or undefined
 * when it is safe: empty, absolute, a `..` or `.` segment, an empty segment, a backslash,
 * a NUL or other control character, or over 1 024 characters.
 */
export function unsafeSkillPath(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.length > 1024) return 'is longer than 1024 characters';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is absolute';
  if (path.includes('\\')) return 'contains a backslash';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'contains a control character';
  for (const segment of path.split('/')) {
    if (segment === '..') return "contains a '..' segment";
    if (segment === '.' || segment === '') return 'contains an empty or "." segment';
  }
  return undefined;
}

/** Largest frontmatter block read, in characters. */
const MAX_FRONTMATTER = 64 * 1024;

/** The YAML between the opening and closing `---` lines (BOM and CRLF removed), or undefined. */
export function frontmatterBlock(text: string): string | undefined {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!body.startsWith('---\n')) return undefined;
  const end = body.indexOf('\n---', 3);
  if (end < 0 || end > MAX_FRONTMATTER) return undefined;
  const after = body.charAt(end + 4);
  if (after !== '' && after !== '\n') return undefined;
  return body.slice(4, end + 1);
}
