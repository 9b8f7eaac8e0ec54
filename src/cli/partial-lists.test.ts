import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
/** The official SDK's low-level Server declaring resources and prompts without their list methods. */
const PARTIAL = fileURLToPath(
  new URL('../../test/support/fixtures/partial-lists-server.mjs', import.meta.url),
);

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a server that answers an optional list method with -32601', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('mcpkit inspect shows those lists as missing and the rest', async () => {
    const run = await cli(['inspect', '--', process.execPath, PARTIAL]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello');
    expect(run.stdout).toContain('file:///notes.txt');
    expect(run.stdout).toContain(
      'Resource templates: missing (the server answered resources/templates/list with -32601 Method not found)',
    );
    expect(run.stdout).toContain('Prompts: missing (the server answered prompts/list with -32601');
  });

  it('mcpkit inspect --json names the missing methods', async () => {
    const run = await cli(['inspect', '--json', '--', process.execPath, PARTIAL]);
    expect(run.code, run.stderr).toBe(0);
    const inspection = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(inspection).toMatchObject({
      tools: [{ name: 'hello' }],
      resources: [{ uri: 'file:///notes.txt' }],
      resourceTemplates: null,
      prompts: null,
      missing: ['resources/templates/list', 'prompts/list'],
    });
  });

  it("the host's merged registry keeps the server's other lists", async () => {
    host = createHost({ servers: { partial: { command: process.execPath, args: [PARTIAL] } } });
    await host.start();
    expect(host.status()[0]?.state).toBe('ready');
    expect(host.tools().map((t) => t.name)).toEqual(['partial__hello']);
    expect(host.resources().map((r) => r.uri)).toEqual(['file:///notes.txt']);
    expect(host.resourceTemplates()).toEqual([]);
  });
});
