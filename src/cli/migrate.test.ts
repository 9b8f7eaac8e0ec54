import { Project, QuoteKind } from 'ts-morph';
import * as tsMorph from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { parseMigrateCommand } from './migrate.js';
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
    expect(todos).toEqual([expect.stringMatching(/^4: serve over HTTP/)]);
    expect(text).toContain('// TODO(mcpkit): serve over HTTP');
    expect(text).toContain("from '@modelcontextprotocol/sdk/server/streamableHttp.js'");
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
