/**
 * Skills (SEP-2640): a server serves a catalogue given in code; a client lists it,
 * downloads one skill with every digest verified, and materialises it into a folder
 * keyed by the host's label for the server. Client and server run in one process over
 * the in-memory pair.
 *
 * Run: npm run build && node dist/examples/skills.js
 * In your project, import from 'mcpkit/server', 'mcpkit/client', 'mcpkit/host' and 'mcpkit/testing'
 * (and `loadSkillFolder('./skills')` from 'mcpkit/node' for a folder of SKILL.md directories).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, SkillCatalogue, skillsExtension } from '../src/server/index.js';
import { createClient, downloadSkill, listSkills } from '../src/client/index.js';
import { materialiseSkills } from '../src/host/index.js';
import { createLinkedPair } from '../src/testing/index.js';

async function main(): Promise<void> {
  const catalogue = await SkillCatalogue.fromFiles({
    'release-notes': {
      'SKILL.md':
        '---\nname: release-notes\ndescription: Write release notes from merged changes\n---\nUse templates/NOTES.md.\n',
      'templates/NOTES.md': '## Added\n\n## Fixed\n',
    },
  });
  const server = createServer({
    name: 'skills-server',
    version: '1.0.0',
    extensions: [skillsExtension(catalogue)],
  });
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'skills-host', version: '1.0.0' });
  await client.connect(a);

  const { skills } = await listSkills(client);
  for (const skill of skills) console.log(`${skill.uri}: ${skill.frontmatter.description}`);
  const files = await downloadSkill(client, skills[0]!);
  console.log('verified', files.map((f) => `${f.path} (${f.bytes.byteLength} bytes)`).join(', '));

  const dir = await mkdtemp(join(tmpdir(), 'skills-'));
  try {
    const [written] = await materialiseSkills(client, { dir, server: 'release-server', skills });
    console.log('written to', written!.path);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
