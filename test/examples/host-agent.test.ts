import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

it('the host agent example lists tools across three servers and calls one of each', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(root, 'dist/examples/host-agent.js')],
    {
      cwd: root,
      timeout: 60_000,
    },
  );
  expect(stdout).toMatch(/^\d+ tools from filesystem, memory, everything$/m);
  expect(stdout).toContain('→ filesystem__read_text_file:');
  expect(stdout).toContain('→ memory__create_entities:');
  expect(stdout).toContain('→ everything__echo: I made 3 calls');
});
