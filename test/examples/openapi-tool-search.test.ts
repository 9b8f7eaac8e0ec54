/**
 * The OpenAPI and tool-search examples run as documented, and `mcpkit serve --openapi`
 * serves the Petstore document on stdio to `mcpkit call` (built CLI, real loopback API).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli } from '../support/cli.js';
import { startPetstore, type Petstore } from '../support/petstore.js';

const run = promisify(execFile);
const example = (name: string) =>
  run(process.execPath, [join(ROOT, 'dist/examples', `${name}.js`)], { cwd: ROOT });

describe('examples', () => {
  it('openapi-server turns a REST API into tools and calls them', async () => {
    const { stdout } = await example('openapi-server');
    expect(stdout).toContain('tools: listTodos, addTodo; issues: 0');
    expect(stdout).toContain('addTodo → {"id":2,"title":"write the docs","done":false}');
    expect(stdout).toContain('addTodo with an empty title → isError: true');
  });

  it('tool-search finds a tool among 1 002 by what it does and keeps the admin tool hidden', async () => {
    const { stdout } = await example('tool-search');
    expect(stdout).toContain('tools listed: search_tools, call_tool');
    expect(stdout).toMatch(/search_tools → convert_currency/);
    expect(stdout).toContain('call_tool → 10 EUR is about 10.80 USD');
    expect(stdout).toContain('call_tool drop_database → Unknown tool: drop_database');
  });
});

describe('mcpkit serve --openapi', () => {
  let store: Petstore;
  beforeAll(async () => {
    store = await startPetstore({ token: 'cli-token-5e1f' });
    process.env.MCPKIT_TEST_PETSTORE_TOKEN = 'cli-token-5e1f';
  });
  afterAll(() => store.close());

  it('serves the Petstore on stdio: a call reaches the API with the token, bad operations are listed on stderr', async () => {
    const served = [
      'node',
      CLI,
      'serve',
      '--openapi',
      'test/support/fixtures/openapi/petstore3.yaml',
      '--base-url',
      store.baseUrl,
      '--token-env',
      'MCPKIT_TEST_PETSTORE_TOKEN',
    ];
    const result = await runCli(['call', 'getPetById', 'petId:=1', '--json', '--stderr', '--', ...served]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ structuredContent: { id: 1, name: 'Rex' } });
    expect(result.stderr).toMatch(/not served: POST \/pet\/\{petId\}\/uploadImage \(uploadFile\)/);
    expect(store.seen.at(-1)?.headers.authorization).toBe('Bearer cli-token-5e1f');
    expect(result.stdout + result.stderr).not.toContain('cli-token-5e1f');
  });

  it('refuses a missing --base-url and an unset --token-env', async () => {
    expect(await runCli(['serve', '--openapi', 'x.yaml'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--base-url/),
    });
    const unset = await runCli([
      'serve',
      '--openapi',
      'x.yaml',
      '--base-url',
      'http://127.0.0.1:1',
      '--token-env',
      'MCPKIT_NO_SUCH_VAR',
    ]);
    expect(unset).toMatchObject({ code: 2, stderr: expect.stringMatching(/MCPKIT_NO_SUCH_VAR is not set/) });
  });
});
