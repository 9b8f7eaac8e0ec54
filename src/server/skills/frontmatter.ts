/**
 * A `SKILL.md`'s YAML frontmatter as the JSON object a skill entry carries, checked
 * against the Agent Skills rules the extension relies on: it opens the file, it is a
 * mapping, `name` matches the skill's directory and the naming rule, `description` is a
 * non-empty string of at most 1 024 characters.
 * Source: ext-skills specification/beta/skills.mdx "Skill Format", "Frontmatter";
 * agentskills.io specification "name field", "description field".
 */
import { type SkillFrontmatter } from '../../core/index.js';
import { frontmatterBlock, isSkillName } from '../../core/skills.js';

/**
 * Parses the YAML of a frontmatter block into a plain JSON object (YAML 1.2 core schema,
 * aliases bounded). @throws Error for invalid YAML or a value that is not a mapping.
 */
async function parseFrontmatter(yaml: string): Promise<Record<string, unknown>> {
  // Loaded on first use: importing mcpkit/server loads no dependency.
  const { parse } = await import('yaml');
  const value: unknown = parse(yaml, { maxAliasCount: 100, uniqueKeys: true });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('frontmatter is not a YAML mapping');
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/**
 * The frontmatter of `skillMd`, for the skill whose directory is named `name`.
 * @throws Error naming the broken rule.
 */
export async function frontmatterOf(skillMd: Uint8Array, name: string): Promise<SkillFrontmatter> {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(skillMd);
  const block = frontmatterBlock(text);
  if (block === undefined) throw new SkillRuleError('SKILL.md does not begin with a --- frontmatter block');
  let fields: Record<string, unknown>;
  try {
    fields = await parseFrontmatter(block);
  } catch (error) {
    throw new SkillRuleError(`SKILL.md frontmatter is not valid: ${(error as Error).message}`);
  }
  if (!isSkillName(fields.name))
    throw new SkillRuleError('frontmatter name must be 1-64 lowercase letters, digits and single hyphens');
  if (fields.name !== name)
    throw new SkillRuleError(`frontmatter name '${fields.name}' is not the directory name '${name}'`);
  const description = fields.description;
  if (typeof description !== 'string' || description.length === 0 || description.length > 1024)
    throw new SkillRuleError('frontmatter description must be a string of 1-1024 characters');
  return fields as SkillFrontmatter;
}

/** A skill breaks a rule of the format (the catalogue leaves it out with this message). */
export class SkillRuleError extends Error {}
