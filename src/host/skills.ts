/**
 * Materialises MCP-served skills into a local folder, verified file by file, at a path
 * that encodes both the host's label for the originating server and the skill's URI
 * (`<dir>/<server>/<scheme>/<skill path>/…`), so same-URI skills of two servers never
 * collide and the origin is recoverable from the path. Each skill is written to a fresh
 * temporary directory and renamed into place: a failed verification writes nothing.
 * Keep `dir` outside every filesystem-skill discovery path.
 * Source: ext-skills specification/beta/skills.mdx (SEP-2640) "Skill URIs", "Lazy
 * Retrieval", "Security Considerations" (cache isolation, durable origin).
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { downloadSkill, listSkills, type Client } from '../client/index.js';
import { LocalError, type Skill } from '../core/index.js';
import { unsafeSkillPath } from '../core/skills.js';

/** Options of {@link materialiseSkills}. */
export interface MaterialiseOptions {
  /** The folder to write into (created when missing). */
  dir: string;
  /** The host's label for the server (not its self-reported name): the first path segment. */
  server: string;
  /** The skills to write (default: every valid entry of `skills/list`). */
  skills?: readonly Skill[];
}

/** One skill written: its entry and the folder holding its files. */
export interface MaterialisedSkill {
  skill: Skill;
  path: string;
}

/**
 * Downloads and writes each skill (see the module comment). Call it when the skills are
 * needed (the SEP forbids fetching ahead of need); an existing copy is replaced.
 * @throws LocalError `INVALID_ARGUMENT` for a server label or skill URI that cannot be a
 *   safe path; whatever `downloadSkill` throws (verification failures).
 */
export async function materialiseSkills(
  client: Client,
  options: MaterialiseOptions,
): Promise<MaterialisedSkill[]> {
  const label = safeSegment(options.server, 'server label');
  const skills = options.skills ?? (await listSkills(client)).skills;
  const out: MaterialisedSkill[] = [];
  for (const skill of skills) {
    const target = join(options.dir, label, ...skillPathOf(skill.uri));
    const files = await downloadSkill(client, skill);
    await mkdir(dirname(target), { recursive: true });
    const staging = await mkdtemp(`${target}.partial-`);
    try {
      for (const file of files) {
        const at = join(staging, ...file.path.split('/'));
        await mkdir(dirname(at), { recursive: true });
        await writeFile(at, file.bytes, { flag: 'wx', mode: 0o444 });
      }
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    out.push({ skill, path: target });
  }
  return out;
}

/** `skill://acme/billing/refunds/SKILL.md` → `['skill', 'acme', 'billing', 'refunds']`, each segment checked. */
function skillPathOf(uri: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.+)\/SKILL\.md$/.exec(uri);
  if (!match) throw new LocalError('INVALID_ARGUMENT', `${uri} is not a skill URI`);
  const segments = match[2]!.split('/').map((s) => safeSegment(decodeURIComponent(s), uri));
  return [match[1]!, ...segments];
}

function safeSegment(segment: string, what: string): string {
  const unsafe = unsafeSkillPath(segment) ?? (segment.includes('/') ? 'contains a slash' : undefined);
  if (unsafe) throw new LocalError('INVALID_ARGUMENT', `${what}: '${segment}' ${unsafe}`);
  return segment;
}
