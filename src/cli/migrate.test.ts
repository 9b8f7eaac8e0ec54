import { Project, QuoteKind } from 'ts-morph';
import * as tsMorph from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMigrateCommand, runMigrate } from './migrate.js';
import { migrateSource } from './migrate-rules.js';

/** The codemod's output for one in-memory file. */
function migrate(code: string): { text: string; todos: string[] } {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { quoteKind: QuoteKind.Single },
  });
  const file = project.createSourceFile('app.ts', code);
  const todos = migrateSource(file, tsMorph);
  return { text: file.getFullText(), todos };
}

describe('mcpkit migrate', () => {
  it('rewrites a v1 client: constructor, transports and the request methods', () => {
    const { text, todos } = migrate(
      [
        "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
        "const client = new Client({ name: 'app', version: '1.0.0' });",
        "await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));",
        'const { tools } = await client.listTools();',
        "const r = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });",
        "const c = await client.readResource({ uri: 'file:///a' });",
        "const p = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });",
      ].join('\n'),
    );
    expect(todos).toEqual([]);
    expect(text).toContain("import { createClient, streamableHttp } from 'mcpkit/client';");
    expect(text).toContain("createClient({ name: 'app', version: '1.0.0' })");
    expect(text).toContain("client.connect(streamableHttp('http://127.0.0.1:3000/mcp'))");
    expect(text).toContain('const { tools } = await client.listToolsPage();');
    expect(text).toContain("client.callTool('echo', { text: 'hi' })");
    expect(text).toContain("client.readResource('file:///a')");
    expect(text).toContain("client.getPrompt('greet', { who: 'Ada' })");
  });

  it('rewrites the deprecated tool() overloads, resources with templates, and prompts', () => {
    const { text, todos } = migrate(
      [
        "import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "const server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} }, instructions: 'hi' });",
        "server.tool('add', 'Adds', { a: z.number() }, async ({ a }) => ({ content: [] }));",
        "server.registerResource('f', 'file:///a', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'a' }] }));",
        "server.registerResource('t', new ResourceTemplate('notes://{id}', { list: undefined }), {}, async (uri, { id }) => ({ contents: [] }));",
        "server.prompt('greet', { who: z.string() }, ({ who }) => ({ messages: [] }));",
      ].join('\n'),
    );
    expect(todos).toEqual([]);
    expect(text).toContain("createServer({ name: 's', version: '1', instructions: 'hi' })");
    expect(text).toContain(
      "server.tool('add', { description: 'Adds', inputSchema: z.object({ a: z.number() }) }, async",
    );
    expect(text).toContain(
      "server.resource('file:///a', { name: 'f', mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri, text: 'a' }] }))",
    );
    expect(text).toContain("server.resourceTemplate('notes://{id}', { name: 't' }, async (uri, { id })");
    expect(text).toContain("server.prompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who })");
    expect(text).toContain("import { z } from 'zod';");
  });

  it('leaves a TODO(mcpkit) where it has no safe rewrite, and keeps the code', () => {
    const { text, todos } = migrate(
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';",
        "const server = new McpServer({ name: 's', version: '1' });",
        'await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));',
      ].join('\n'),
    );
    expect(todos).toEqual([
      expect.stringMatching(/^2: no rewrite for StreamableHTTPServerTransport/),
      expect.stringMatching(/^5: serve over HTTP/),
    ]);
    expect(text).toContain('// TODO(mcpkit): serve over HTTP');
    expect(text).toContain("from '@modelcontextprotocol/sdk/server/streamableHttp.js'");
  });

  it('mounts an Express route that builds a v1 transport as mcpExpress, and drops the other routes on its path', () => {
    const { text, todos } = migrate(
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';",
        "import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';",
        "const getServer = () => new McpServer({ name: 's', version: '1' });",
        'const app = createMcpExpressApp();',
        "app.post('/mcp', async (req, res) => {",
        '  const server = getServer();',
        '  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });',
        '  await server.connect(transport);',
        '  await transport.handleRequest(req, res, req.body);',
        '});',
        "app.get('/mcp', (req, res) => res.writeHead(405).end());",
        "app.get('/health', (req, res) => res.end('ok'));",
      ].join('\n'),
    );
    expect(todos).toEqual([]);
    expect(text).toContain("import { mcpExpress } from 'mcpkit/express';");
    expect(text).toContain("import express from 'express';");
    expect(text).toContain('const app = express().use(express.json());');
    expect(text).toContain("app.all('/mcp', mcpExpress(getServer()));");
    expect(text).not.toContain("app.get('/mcp'");
    expect(text).toContain("app.get('/health'");
  });

  it('rewrites request(req, ResultSchema), log handlers, onerror and transport.close() of a v1 client', () => {
    const { text, todos } = migrate(
      [
        "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
        "import { CallToolResultSchema, ListToolsResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';",
        "const client = new Client({ name: 'app', version: '1' });",
        'client.onerror = (error) => console.error(error);',
        "const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'));",
        'await client.connect(transport);',
        'client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => console.log(n.params.data));',
        "const listed = { method: 'tools/list', params: {} };",
        'await client.request(listed, ListToolsResultSchema);',
        "await client.request({ method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } }, CallToolResultSchema);",
        'await transport.close();',
      ].join('\n'),
    );
    expect(todos).toEqual([expect.stringMatching(/^7: no onerror in mcpkit/)]);
    expect(text).toContain('// client.onerror = (error) => console.error(error);');
    expect(text).toMatch(
      /onNotification: \(notification\) => \{\s+if \(notification\.method === 'notifications\/message'\)/,
    );
    expect(text).not.toContain('setNotificationHandler');
    expect(text).toContain('await client.listToolsPage();');
    expect(text).toContain("await client.callTool('x', { a: 1 });");
    expect(text).toContain('await client.close();');
    expect(text).not.toContain('@modelcontextprotocol/sdk');
  });

  it('leaves a TODO on a tool whose handler returns structuredContent: mcpkit types it by outputSchema, v1 did not', () => {
    const { text, todos } = migrate(
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "import { z } from 'zod';",
        "const server = new McpServer({ name: 's', version: '1' });",
        "server.registerTool('w', { outputSchema: { c: z.enum(['a', 'b']) } }, async () => ({ content: [], structuredContent: { c: 'a' } }));",
      ].join('\n'),
    );
    expect(todos).toEqual([expect.stringMatching(/^4: mcpkit types structuredContent by outputSchema/)]);
    expect(text).toContain("outputSchema: z.object({ c: z.enum(['a', 'b']) })");
  });

  it('parses its command line: files, --dry-run, and no files is a usage error', () => {
    expect(parseMigrateCommand(['a.ts', '--dry-run'])).toEqual({
      name: 'migrate',
      files: ['a.ts'],
      dryRun: true,
    });
    expect(() => parseMigrateCommand([])).toThrow(/one or more files/);
  });
});

describe('mcpkit migrate refuses what it would corrupt', () => {
  const V1 =
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer({ name: 'a', version: '1' });\n";

  function inTemp(files: Record<string, Uint8Array | string>): { dir: string; done: () => void } {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-migrate-'));
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
  }

  it('refuses a file that is not TypeScript or JavaScript, or not UTF-8, and writes no file at all', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x20]);
    const { dir, done } = inTemp({
      'image.png': png,
      'latin1.ts': Uint8Array.from([0x2f, 0x2f, 0xe9, 0xff]),
      'app.ts': V1,
    });
    try {
      const run = (names: string[]) => runMigrate(parseMigrateCommand(names.map((n) => join(dir, n))));
      await expect(run(['app.ts', 'image.png'])).rejects.toThrow(
        /image\.png is not a TypeScript or JavaScript file/,
      );
      await expect(run(['app.ts', 'latin1.ts'])).rejects.toThrow(/latin1\.ts is not UTF-8 text/);
      await expect(run(['.'])).rejects.toThrow(/is not a file/);
      expect(readFileSync(join(dir, 'image.png'))).toEqual(Buffer.from(png));
      expect(readFileSync(join(dir, 'app.ts'), 'utf8')).toBe(V1); // refused before anything was written
    } finally {
      done();
    }
  });

  it('says unchanged, and writes nothing, for a file with no SDK v1 code', async () => {
    const plain = 'export const answer = 42;\n';
    const { dir, done } = inTemp({ 'plain.ts': plain, 'app.ts': V1 });
    try {
      const report = await runMigrate(parseMigrateCommand([join(dir, 'plain.ts'), join(dir, 'app.ts')]));
      expect(report).toContain('plain.ts: unchanged');
      expect(report).toMatch(/app\.ts: migrated/);
      expect(readFileSync(join(dir, 'plain.ts'), 'utf8')).toBe(plain);
      expect(readFileSync(join(dir, 'app.ts'), 'utf8')).toContain("from 'mcpkit/server'");
    } finally {
      done();
    }
  });
});

describe('mcpkit migrate refuses input it would mangle', () => {
  const V1 =
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer({ name: 'a', version: '1' });\n";

  function inTemp(files: Record<string, string>): { dir: string; done: () => void } {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-migrate-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
  }

  it.each([
    ['broken.ts', `${V1}server.tool('x', {, async () => ({}));\n`, /broken\.ts:3:\d+: /],
    ['typed.js', `${V1}const n: number = 1;\n`, /typed\.js:3:\d+: .*TypeScript files/],
    ['unclosed.mjs', `${V1}const t = \`never closed;\n`, /unclosed\.mjs:4:1: Unterminated template literal/],
  ])('reports the syntax error of %s as file:line:col and writes no file', async (name, text, error) => {
    const { dir, done } = inTemp({ [name]: text, 'app.ts': V1 });
    try {
      const files = [join(dir, 'app.ts'), join(dir, name)];
      await expect(runMigrate(parseMigrateCommand(files))).rejects.toThrow(error);
      expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
      expect(readFileSync(join(dir, 'app.ts'), 'utf8')).toBe(V1);
    } finally {
      done();
    }
  });

  it('keeps CRLF line endings and a byte order mark, and rewrites a file named twice once', async () => {
    const crlf = `\uFEFF${V1.replaceAll('\n', '\r\n')}server.connect(x);\r\n`;
    const { dir, done } = inTemp({ 'win.ts': crlf });
    try {
      const path = join(dir, 'win.ts');
      const report = await runMigrate(parseMigrateCommand([path, join(dir, '.', 'win.ts')]));
      expect(report.split('\n').filter((line) => line.startsWith(path))).toHaveLength(1);
      const text = readFileSync(path, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(text).toContain("from 'mcpkit/server'");
      expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    } finally {
      done();
    }
  });
});
