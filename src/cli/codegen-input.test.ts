/**
 * What a tester fed `mcpkit codegen`: a tool and a property named `__proto__` (the module
 * must keep them own keys: `{ __proto__: … }` in a literal sets the prototype), and a tool
 * whose schema has a local `$ref` that does not resolve (the others are still generated).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../core/index.js';
import { ROOT } from '../../test/support/cli.js';
import { generateTools } from './codegen.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const TOOLS = JSON.parse(`[
  {"name":"__proto__","inputSchema":{"type":"object","required":["__proto__"],
    "properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}}}},
  {"name":"broken","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}},
    "outputSchema":{"type":"object","properties":{"b":{"$ref":"#/definitions/gone"}}}},
  {"name":"ok","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}
]`) as Tool[];
const USE = `import { createTools, type ProtoArguments, type BrokenArguments, type BrokenResult } from './tools.js';
const args: ProtoArguments = JSON.parse('{"__proto__":"x"}') as ProtoArguments;
const open: BrokenArguments = { anything: 1 };
const result: BrokenResult = 1;
export { args, open, result, createTools };
`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-codegen-input-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'mcpkit'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function tsc(): Promise<{ code: number | null; out: string }> {
  const options = {
    strict: true,
    noEmit: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    types: [],
    skipLibCheck: true,
  };
  return writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: options, files: ['tools.ts', 'use.ts'] }),
  ).then(
    () =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [TSC, '-p', dir], { cwd: dir });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('close', (code) => resolve({ code, out }));
      }),
  );
}

describe('codegen of awkward schemas', () => {
  it('keeps __proto__ an own key, types the tools around a missing $ref, names the tool and the ref, and passes tsc', async () => {
    const issues: string[] = [];
    const text = await generateTools(TOOLS, 'tester', (issue) => issues.push(issue));
    expect(issues).toEqual([
      expect.stringMatching(/^tool "broken": its inputSchema could not be typed: .*#\/\$defs\/missing/),
      expect.stringMatching(/^tool "broken": its outputSchema could not be typed: .*#\/definitions\/gone/),
    ]);
    expect(text).toMatch(/export interface ProtoArguments \{\n {2}__proto__: string;/);
    expect(text).toContain('export type BrokenArguments = { [key: string]: unknown };');
    expect(text).toContain('export interface OkArguments {');
    expect(text).toContain('["__proto__"]: (args, options) => call("__proto__", args, options),');
    await writeFile(join(dir, 'tools.ts'), text);
    await writeFile(join(dir, 'use.ts'), USE);
    expect(await tsc()).toEqual({ code: 0, out: '' });

    const module = (await import(pathToFileURL(join(dir, 'tools.ts')).href)) as {
      createTools(c: unknown): Record<string, (args?: object) => Promise<unknown>>;
    };
    const called: string[] = [];
    const client = { callTool: (name: string) => (called.push(name), Promise.resolve({ content: [] })) };
    const tools = module.createTools(client);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    expect(Object.keys(tools)).toEqual(['__proto__', 'broken', 'ok']);
    await tools.__proto__!({});
    expect(called).toEqual(['__proto__']);
  }, 60_000);
});
