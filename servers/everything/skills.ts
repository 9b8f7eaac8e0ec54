/**
 * A small skills catalogue on the everything server (Skills extension, SEP-2640): one
 * skill with a supporting file, and one nested under an organisational prefix.
 */
import { SkillCatalogue, skillsExtension, type McpServer } from '../../src/server/index.js';

const CATALOGUE = {
  'greeting-style': {
    'SKILL.md':
      '---\nname: greeting-style\ndescription: How this server greets people (use with the echo tool)\n---\n' +
      '# Greeting style\n\nGreet warmly, then echo the name. Examples are in `references/EXAMPLES.md`.\n',
    'references/EXAMPLES.md': '# Examples\n\n- "Hello, Ada!"\n- "Welcome back, Linus!"\n',
  },
  'mcpkit/testing/conformance-notes': {
    'SKILL.md':
      '---\nname: conformance-notes\ndescription: What the everything server is for\nlicense: Apache-2.0\n---\n' +
      'This server exercises every MCP feature for the conformance suite.\n',
  },
};

/** Serves the catalogue on `server`. */
export function registerSkills(server: McpServer): void {
  server.use(skillsExtension(SkillCatalogue.fromFiles(CATALOGUE, { strict: true })));
}
