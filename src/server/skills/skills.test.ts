import { describe, expect, it } from 'vitest';
import { createClient, downloadSkill, getSkill, listSkills, readSkillFile } from '../../client/index.js';
import { type Skill } from '../../core/index.js';
import { SKILLS_EXTENSION, skillDigest } from '../../core/skills.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { connect, createServer, SkillCatalogue, skillsExtension } from '../index.js';

const GIT =
  '---\nname: git-workflow\ndescription: Follow the team Git conventions\nmetadata:\n  version: "1.0"\n---\n# Git\nSee references/GUIDE.md\n';
const FILES = {
  'git-workflow': {
    'SKILL.md': GIT,
    'references/GUIDE.md': '# Guide\n',
    'bin/logo.png': new Uint8Array([0, 255, 1]),
  },
  'acme/billing/refunds': { 'SKILL.md': '---\nname: refunds\ndescription: Refunds per policy\n---\nbody\n' },
  'bad-name': { 'SKILL.md': '---\nname: other\ndescription: mismatched\n---\n' },
  'no-front': { 'SKILL.md': '# no frontmatter\n' },
};

async function serve(era: 'modern' | 'legacy', catalogue?: SkillCatalogue) {
  const skills = catalogue ?? (await SkillCatalogue.fromFiles(FILES));
  const server = createServer({
    name: 's',
    version: '1',
    extensions: [skillsExtension(skills, { pageSize: 1 })],
  });
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return { client, skills };
}

describe('a skills catalogue from code', () => {
  it('lists each valid skill with every file, digest and size, and names each refused one', async () => {
    const catalogue = await SkillCatalogue.fromFiles(FILES);
    expect(catalogue.entries.map((s) => s.uri)).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
    ]);
    const git = catalogue.get('skill://git-workflow/SKILL.md')!;
    expect(git.frontmatter).toEqual({
      name: 'git-workflow',
      description: 'Follow the team Git conventions',
      metadata: { version: '1.0' },
    });
    const bytes = new TextEncoder().encode(GIT);
    expect(git.resources).toContainEqual({
      uri: 'skill://git-workflow/SKILL.md',
      digest: await skillDigest(bytes),
      size: bytes.byteLength,
    });
    expect((git.resources as unknown[]).length).toBe(3);
    expect(catalogue.problems.map((p) => p.path).sort()).toEqual(['bad-name', 'no-front']);
    expect(catalogue.problems.find((p) => p.path === 'bad-name')?.reason).toMatch(/not the directory name/);
  });

  it('finds skills, files and directories by any spelling of their URI, and refuses a skill whose URIs another has', async () => {
    const refunds = '---\nname: refunds\ndescription: Refunds per policy\n---\nbody\n';
    const catalogue = await SkillCatalogue.fromFiles({
      ...FILES,
      'Acme/billing/refunds': { 'SKILL.md': refunds, 'other.md': 'shadow' },
    });
    expect(catalogue.entries.map((s) => s.uri)).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
    ]);
    expect(catalogue.problems.find((p) => p.path === 'Acme/billing/refunds')?.reason).toMatch(
      /URIs of skill 'acme\/billing\/refunds'/,
    );
    expect(catalogue.get('SKILL://ACME/billing/refunds/SKILL%2Emd')?.frontmatter.name).toBe('refunds');
    expect(catalogue.file('skill://git-workflow/references/GUIDE%2emd')).toBeDefined();
    expect(catalogue.file('skill://acme/billing/refunds/other.md')).toBeUndefined();
    expect(catalogue.directory('skill://Git-Workflow/references')?.map((r) => r.uri)).toEqual([
      'skill://git-workflow/references/GUIDE.md',
    ]);
  });

  it('refuses a skill over the file-count or size bound, and a path with ..', async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, 'x']));
    const catalogue = await SkillCatalogue.fromFiles(
      {
        many: { 'SKILL.md': '---\nname: many\ndescription: d\n---\n', ...many },
        big: { 'SKILL.md': '---\nname: big\ndescription: d\n---\n', 'blob.bin': new Uint8Array(200) },
        sneaky: { 'SKILL.md': '---\nname: sneaky\ndescription: d\n---\n', '../escape.md': 'x' },
      },
      { maxFiles: 3, maxSkillBytes: 150 },
    );
    const reasons = Object.fromEntries(catalogue.problems.map((p) => [p.path, p.reason]));
    expect(reasons.many).toMatch(/more than 3 files/);
    expect(reasons.big).toMatch(/over the bound/);
    expect(catalogue.entries.map((s) => s.uri)).not.toContain('skill://sneaky/SKILL.md');
    await expect(
      SkillCatalogue.fromFiles({ bad: FILES['bad-name'] }, { strict: true }),
    ).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
    });
  });
});

describe.each(['modern', 'legacy'] as const)('skills over the wire (%s)', (era) => {
  it('declares the extension with directoryRead and pages skills/list', async () => {
    const { client } = await serve(era);
    const listing = await listSkills(client);
    expect(client.serverExtension(SKILLS_EXTENSION)).toEqual({ directoryRead: true });
    expect(listing.skills.map((s) => s.frontmatter.name)).toEqual(['refunds', 'git-workflow']);
    expect(listing.invalid).toEqual([]);
  });

  it('gets a skill, and answers -32602 for one it does not serve and for a path with ..', async () => {
    const { client } = await serve(era);
    expect((await getSkill(client, 'skill://git-workflow/SKILL.md')).frontmatter.name).toBe('git-workflow');
    await expect(client.request('skills/get', { uri: 'skill://nope/SKILL.md' })).rejects.toMatchObject({
      code: -32602,
      message: 'No skill is served at skill://nope/SKILL.md',
    });
    await expect(
      client.request('skills/get', { uri: 'skill://git-workflow/../x/SKILL.md' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Refused .*'\.\.' segment/),
    });
    await expect(client.readResource('skill://git-workflow/%2e%2e/x')).rejects.toMatchObject({
      message: /Refused/,
    });
  });

  it('downloads a skill verified (text and binary files) and reads directories', async () => {
    const { client } = await serve(era);
    const skill = await getSkill(client, 'skill://git-workflow/SKILL.md');
    const files = await downloadSkill(client, skill);
    expect(files.map((f) => f.path).sort()).toEqual(['SKILL.md', 'bin/logo.png', 'references/GUIDE.md']);
    expect([...files.find((f) => f.path === 'bin/logo.png')!.bytes]).toEqual([0, 255, 1]);
    const children: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request('resources/directory/read', {
        uri: 'skill://git-workflow',
        ...(cursor ? { cursor } : {}),
      });
      children.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(children.sort()).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://git-workflow/bin',
      'skill://git-workflow/references',
    ]);
    await expect(
      client.request('resources/directory/read', { uri: 'skill://git-workflow/SKILL.md' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'skill://git-workflow/SKILL.md is not a directory resource',
    });
  });

  it('refuses content that does not match the entry: a changed digest, an unlisted file, other frontmatter', async () => {
    const { client } = await serve(era);
    const skill = await getSkill(client, 'skill://git-workflow/SKILL.md');
    const resources = skill.resources as Exclude<Skill['resources'], 'dynamic'>;
    const tampered: Skill = {
      ...skill,
      resources: resources.map((r) => ({ ...r, digest: `sha256:${'0'.repeat(64)}` })),
    };
    await expect(readSkillFile(client, tampered)).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: /digest/,
    });
    await expect(readSkillFile(client, skill, 'other.md')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(readSkillFile(client, skill, '../refunds/SKILL.md')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const renamed: Skill = { ...skill, frontmatter: { ...skill.frontmatter, description: 'another' } };
    await expect(readSkillFile(client, renamed)).rejects.toMatchObject({ message: /frontmatter differs/ });
  });
});
