/** `mcpkit serve --openapi` (the built CLI) refuses to start with nothing to serve. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../../test/support/cli.js';

const FIXTURES = join(ROOT, 'test/support/fixtures/openapi');
const SLOW = { timeout: 60_000 };

describe('mcpkit serve --openapi', () => {
  it(
    'exits non-zero, not serving zero tools, when no operation of a non-empty document can be served',
    SLOW,
    async () => {
      const spec = join(FIXTURES, 'only-bad.json');
      const run = await runCli(['serve', '--openapi', spec, '--base-url', 'http://127.0.0.1:9']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('not served: GET /x (external): external $ref');
      expect(run.stderr).toContain(`none of the 1 operations of ${spec} can be served`);
    },
  );

  it('names the file, what it read and what it expected for a plain-text document', SLOW, async () => {
    const spec = join(FIXTURES, 'plain.txt');
    const run = await runCli(['serve', '--openapi', spec, '--base-url', 'http://127.0.0.1:9']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${spec}: it parses (as JSON or YAML) to a plain value, not an object`);
    expect(run.stderr).not.toContain('JSON Schema');
  });
});
