/**
 * Skills (SEP-2640) against the official TypeScript SDK 2.4, both ways, over Streamable
 * HTTP: the official `SkillsClient` lists and reads (verifying digests) skills from
 * mcpkit's server, whose catalogue is a folder on disk; mcpkit's client lists, downloads
 * and materialises skills from the official `SkillsExtension` server.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpServer as OfficialServer, createMcpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, downloadSkill, listSkills, streamableHttp } from '../../src/client/index.js';
import { materialiseSkills } from '../../src/host/index.js';
import { loadSkillFolder, serve, type Served } from '../../src/integrations/node/index.js';
import { createServer, skillsExtension } from '../../src/server/index.js';

const SKILL_MD = (name: string) =>
  `---\nname: ${name}\ndescription: The ${name} skill\nlicense: Apache-2.0\n---\n# ${name}\n`;

describe('the official SkillsClient against mcpkit (catalogue from a folder)', () => {
  let dir: string;
  let served: Served;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-skills-'));
    await mkdir(join(dir, 'pdf-tools', 'references'), { recursive: true });
    await writeFile(join(dir, 'pdf-tools', 'SKILL.md'), SKILL_MD('pdf-tools'));
    await writeFile(join(dir, 'pdf-tools', 'references', 'FORMS.md'), '# Forms\n');
    await mkdir(join(dir, 'leaky'));
    await writeFile(join(dir, 'leaky', 'SKILL.md'), SKILL_MD('leaky'));
    await symlink('/etc/hostname', join(dir, 'leaky', 'host.txt')); // out of the catalogue
    const catalogue = await loadSkillFolder(dir);
    expect(catalogue.problems).toEqual([
      { path: 'leaky', reason: "'host.txt' is a symlink or special file" },
    ]);
    const server = createServer({ name: 'ours', version: '1', extensions: [skillsExtension(catalogue)] });
    served = await serve(server, { port: 0 });
  });

  afterAll(async () => {
    await served?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists, gets and reads a skill with its digests verified', async () => {
    const client = new OfficialClient(
      { name: 'official', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    try {
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      const { skills: entries } = await skills.list();
      expect(entries.map((s) => s.uri)).toEqual(['skill://pdf-tools/SKILL.md']);
      const got = await skills.get('skill://pdf-tools/SKILL.md');
      expect(got.skill.frontmatter).toMatchObject({ name: 'pdf-tools', license: 'Apache-2.0' });
      const forms = await skills.read(entries[0]!, 'references/FORMS.md');
      expect(forms).toMatchObject({ verified: true, text: '# Forms\n' });
      const main = await skills.read(entries[0]!);
      expect(main.verified).toBe(true);
      const listing = await skills.readDirectory('skill://pdf-tools');
      expect(listing.resources.map((r) => r.uri).sort()).toEqual([
        'skill://pdf-tools/SKILL.md',
        'skill://pdf-tools/references',
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('mcpkit client against the official SkillsExtension server', () => {
  let served: Served;
  let handler: ReturnType<typeof createMcpHandler>;
  let out: string;

  beforeAll(async () => {
    const catalog = await SkillsExtension.load(
      memorySkillFiles({
        'git-workflow/SKILL.md': SKILL_MD('git-workflow'),
        'git-workflow/scripts/check.sh': '#!/bin/sh\necho ok\n',
        'acme/refunds/SKILL.md': SKILL_MD('refunds'),
      }),
    );
    handler = createMcpHandler(() => {
      const server = new OfficialServer({ name: 'official-skills', version: '2.4.0' });
      catalog.attach(server);
      return server;
    });
    served = await serve((request) => handler.fetch(request), { port: 0 });
    out = await mkdtemp(join(tmpdir(), 'mcpkit-materialised-'));
  });

  afterAll(async () => {
    await handler?.close();
    await served?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('lists and downloads every skill verified, and materialises them under the server label', async () => {
    const client = createClient({ name: 'ours', version: '1' });
    await client.connect(streamableHttp(served.url));
    try {
      const { skills, invalid } = await listSkills(client);
      expect(invalid).toEqual([]);
      expect(skills.map((s) => s.uri).sort()).toEqual([
        'skill://acme/refunds/SKILL.md',
        'skill://git-workflow/SKILL.md',
      ]);
      const git = skills.find((s) => s.frontmatter.name === 'git-workflow')!;
      expect((await downloadSkill(client, git)).map((f) => f.path).sort()).toEqual([
        'SKILL.md',
        'scripts/check.sh',
      ]);
      const written = await materialiseSkills(client, { dir: out, server: 'docs-server', skills });
      expect(written.map((w) => w.path).sort()).toEqual([
        join(out, 'docs-server', 'skill', 'acme', 'refunds'),
        join(out, 'docs-server', 'skill', 'git-workflow'),
      ]);
      expect(
        await readFile(join(out, 'docs-server', 'skill', 'git-workflow', 'scripts', 'check.sh'), 'utf8'),
      ).toBe('#!/bin/sh\necho ok\n');
    } finally {
      await client.close();
    }
  });
});
