/**
 * The rewrites of `mcpkit migrate`: code written against the official SDK v1
 * (`@modelcontextprotocol/sdk`) turned into the mcpkit equivalent, on ts-morph's syntax tree.
 * What has no safe rewrite stays as it was, with a `TODO(mcpkit)` comment above its statement.
 */
import type { CallExpression, ImportDeclaration, Node, SourceFile } from 'ts-morph';
import { rewriteClientCall, rewriteHandler, rewriteResource } from './migrate-calls.js';
import { asSchema, receiverOf, todo, type Run, type TsMorph } from './migrate-core.js';
import {
  rewriteNotificationHandler,
  rewriteOnError,
  rewriteRequest,
  rewriteTransportClose,
} from './migrate-client.js';
import { rewriteExpress, stillUsed } from './migrate-http.js';

/**
 * The v1 modules rewritten, by the end of their specifier, with what each import becomes
 * (`default` is a default import; `undefined`, nothing: the rewrites leave no use of it).
 */
const MODULES: Record<string, Record<string, readonly [string, string] | undefined>> = {
  'server/mcp': { McpServer: ['mcpkit/server', 'createServer'], ResourceTemplate: undefined },
  'server/stdio': { StdioServerTransport: ['mcpkit/stdio', 'serveStdio'] },
  'server/streamableHttp': { StreamableHTTPServerTransport: ['mcpkit/express', 'mcpExpress'] },
  'server/express': { createMcpExpressApp: ['express', 'default'] },
  'client/index': { Client: ['mcpkit/client', 'createClient'] },
  'client/stdio': { StdioClientTransport: ['mcpkit/stdio', 'spawnStdio'] },
  'client/streamableHttp': { StreamableHTTPClientTransport: ['mcpkit/client', 'streamableHttp'] },
  types: {},
};

const V1_MODULE =
  /^(?:@modelcontextprotocol\/sdk\/|(?:\.\.?\/)+(?=[sc])|\.\.\/\.\.\/(?=types))(server\/(?:mcp|stdio|streamableHttp|express)|client\/(?:index|stdio|streamableHttp)|types)(?:\.js)?$/;

/** Rewrites one file in place; returns the TODOs left in it (`line: what to do`). */
export function migrateSource(file: SourceFile, ts: TsMorph): string[] {
  const run: Run = { file, ts, servers: new Set(), zod: zodName(file) };
  const v1 = file.getImportDeclarations().some((decl) => V1_MODULE.test(decl.getModuleSpecifierValue()));
  if (!v1) return [];
  rewriteExpress(run);
  for (const node of descendants(run, ts.SyntaxKind.NewExpression))
    if (!node.wasForgotten()) rewriteNew(run, node);
  for (const node of descendants(run, ts.SyntaxKind.CallExpression))
    if (!node.wasForgotten()) rewriteCall(run, node);
  for (const node of descendants(run, ts.SyntaxKind.BinaryExpression))
    if (!node.wasForgotten()) rewriteOnError(run, node);
  rewriteTransportClose(run);
  rewriteImports(run);
  if (run.zod === '__mcpkit_z') {
    file.addImportDeclaration({ moduleSpecifier: 'zod', namedImports: ['z'] });
    file.replaceWithText(file.getFullText().replaceAll('__mcpkit_z.', 'z.'));
  }
  return todoLines(file.getFullText());
}

/** The `TODO(mcpkit)` comments of the rewritten text, as `line: message` (lines from 1). */
function todoLines(text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const message = /\/\/ TODO\(mcpkit\): (.*?):?\r?$/.exec(line)?.[1];
    return message === undefined ? [] : [`${index + 1}: ${message}`];
  });
}

/** Nodes of one kind, deepest first, so a rewrite never invalidates a node still to visit. */
function descendants<T extends Node>(run: Run, kind: number): T[] {
  return (run.file.getDescendantsOfKind(kind as never) as T[]).reverse();
}

function zodName(file: SourceFile): string | undefined {
  for (const decl of file.getImportDeclarations()) {
    if (!/^zod(\/v[34])?$/.test(decl.getModuleSpecifierValue())) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === 'z');
    if (named) return named.getAliasNode()?.getText() ?? 'z';
    const namespace = decl.getNamespaceImport();
    if (namespace) return namespace.getText();
  }
  return undefined;
}

/** An import statement for `names` from `from` (`default` is the default import). */
function importText(from: string, names: Set<string>): string {
  const named = [...names].filter((name) => name !== 'default').sort();
  const parts = [names.has('default') ? from : '', named.length > 0 ? `{ ${named.join(', ')} }` : ''];
  return `import ${parts.filter(Boolean).join(', ')} from '${from}';`;
}

/**
 * Replaces the v1 imports by mcpkit's, where the first stood, once the code is rewritten: a
 * v1 name the rewrites left in use keeps its import, with a TODO.
 */
function rewriteImports(run: Run): void {
  const wanted = new Map<string, Set<string>>();
  const done: ImportDeclaration[] = [];
  const present = new Set(run.file.getImportDeclarations().map((decl) => decl.getModuleSpecifierValue()));
  for (const decl of run.file.getImportDeclarations()) {
    const which = V1_MODULE.exec(decl.getModuleSpecifierValue())?.[1];
    if (!which) continue;
    const map = MODULES[which] ?? {};
    const used = decl.getNamedImports().filter((n) => stillUsed(run, n.getName()));
    for (const named of decl.getNamedImports()) {
      const target = map[named.getName()];
      if (target && !used.includes(named) && !(target[1] === 'default' && present.has(target[0])))
        (wanted.get(target[0]) ?? wanted.set(target[0], new Set()).get(target[0]))?.add(target[1]);
    }
    if (used.length > 0) todo(run, decl, `no rewrite for ${used.map((n) => n.getName()).join(', ')}`);
    else done.push(decl);
  }
  const text = [...wanted].map(([from, names]) => importText(from, names));
  // The first keeps its leading comments (a shebang, the file's doc comment); the rest go.
  done.slice(1).forEach((decl) => decl.remove());
  const first = done[0];
  // A doc comment right above the import counts as part of it: carry it over.
  const doc = first ? run.file.getFullText().slice(first.getStart(true), first.getStart()) : '';
  if (first) first.replaceWithText(doc + text.join('\n'));
  else if (text.length > 0) run.file.insertStatements(0, text.join('\n'));
}

/** `new McpServer(info, options)`, `new Client(...)`, the transports. */
function rewriteNew(run: Run, node: Node): void {
  const { ts } = run;
  if (!ts.Node.isNewExpression(node)) return;
  const name = node.getExpression().getText();
  const args = node.getArguments().map((arg) => arg.getText());
  if (name === 'McpServer' || name === 'Client') {
    const holder = node.getParentIfKind(ts.SyntaxKind.VariableDeclaration)?.getName();
    if (name === 'McpServer' && holder) run.servers.add(holder);
    node.replaceWithText(
      `${name === 'McpServer' ? 'createServer' : 'createClient'}(${mergeOptions(run, node)})`,
    );
  } else if (name === 'StdioClientTransport') node.replaceWithText(`spawnStdio(${args[0] ?? '{}'})`);
  else if (name === 'StreamableHTTPClientTransport') {
    const url = node.getArguments()[0];
    const plain =
      url && ts.Node.isNewExpression(url) && url.getExpression().getText() === 'URL'
        ? url.getArguments()[0]?.getText()
        : args[0];
    if (args.length > 1)
      todo(run, node, 'transport options: see streamableHttp(url, options) in mcpkit/client');
    else node.replaceWithText(`streamableHttp(${plain ?? ''})`);
  }
}

/** `(info, options)` as one options object: mcpkit derives the standard capabilities itself. */
function mergeOptions(run: Run, node: Node): string {
  if (!run.ts.Node.isNewExpression(node)) return '';
  const [info, options] = node.getArguments();
  if (!options) return info?.getText() ?? '{}';
  const props = [info, options].flatMap((arg) =>
    arg && run.ts.Node.isObjectLiteralExpression(arg)
      ? arg
          .getProperties()
          .filter((p) => !(run.ts.Node.isPropertyAssignment(p) && p.getName() === 'capabilities'))
      : [],
  );
  if (
    !info ||
    !run.ts.Node.isObjectLiteralExpression(info) ||
    !run.ts.Node.isObjectLiteralExpression(options)
  )
    return `{ ...${info?.getText() ?? '{}'}, ...${options.getText()} }`;
  return `{ ${props.map((p) => p.getText()).join(', ')} }`;
}

/** Method calls: the server's registrations and connect, the client's requests. */
function rewriteCall(run: Run, node: Node): void {
  const { ts } = run;
  if (!ts.Node.isCallExpression(node)) return;
  const callee = node.getExpression();
  if (!ts.Node.isPropertyAccessExpression(callee)) return;
  const receiver = callee.getExpression().getText();
  const method = callee.getName();
  if (run.servers.has(receiver)) rewriteServerCall(run, node, method);
  else if (method === 'request') rewriteRequest(run, node, receiver);
  else if (method === 'setNotificationHandler') rewriteNotificationHandler(run, node, receiver);
  else if (
    [
      'callTool',
      'readResource',
      'getPrompt',
      'listTools',
      'listResources',
      'listPrompts',
      'listResourceTemplates',
    ].includes(method)
  )
    rewriteClientCall(run, node, method);
}

function rewriteServerCall(run: Run, call: CallExpression, method: string): void {
  const args = call.getArguments();
  const receiver = receiverOf(call);
  const notify: Record<string, string> = {
    sendToolListChanged: 'notifyToolsChanged',
    sendResourceListChanged: 'notifyResourcesChanged',
    sendPromptListChanged: 'notifyPromptsChanged',
  };
  if (method === 'connect') {
    const transport = args[0];
    if (transport && isStdioTransport(run, transport)) call.replaceWithText(`serveStdio(${receiver})`);
    else todo(run, call, 'serve over HTTP with serve(server, { port }) (mcpkit/node) or mcpExpress(server)');
  } else if (notify[method]) call.replaceWithText(`${receiver}.${notify[method]}()`);
  else if (method === 'registerTool' || method === 'tool') rewriteTool(run, call, method);
  else if (method === 'registerPrompt' || method === 'prompt') rewritePrompt(run, call, method);
  else if (method === 'registerResource' || method === 'resource') rewriteResource(run, call);
}

/** Whether `node` is `new StdioServerTransport()` or a variable initialised with it (then dropped). */
function isStdioTransport(run: Run, node: Node): boolean {
  const { ts } = run;
  if (ts.Node.isNewExpression(node)) return node.getExpression().getText() === 'StdioServerTransport';
  if (!ts.Node.isIdentifier(node)) return false;
  const decl = node.getDefinitionNodes()[0];
  if (!decl || !ts.Node.isVariableDeclaration(decl)) return false;
  const init = decl.getInitializer();
  if (!init || !ts.Node.isNewExpression(init) || init.getExpression().getText() !== 'StdioServerTransport')
    return false;
  decl.getVariableStatement()?.remove();
  return true;
}

/** A v1 config object with its raw shapes (`inputSchema`, `outputSchema`, `argsSchema`) wrapped. */
function withSchemas(run: Run, config: Node): string {
  if (!run.ts.Node.isObjectLiteralExpression(config)) return config.getText();
  for (const key of ['inputSchema', 'outputSchema', 'argsSchema']) {
    const prop = config.getProperty(key);
    const value = prop && run.ts.Node.isPropertyAssignment(prop) ? prop.getInitializer() : undefined;
    if (value && run.ts.Node.isObjectLiteralExpression(value)) value.replaceWithText(asSchema(run, value));
  }
  return config.getText();
}

/** The deprecated `tool`/`prompt` overloads: (name, [description], [shape], [annotations], callback). */
function legacyDefinition(run: Run, args: Node[], schemaKey: string): string {
  const parts: string[] = [];
  const [first] = args;
  let rest = args;
  if (first && run.ts.Node.isStringLiteral(first)) {
    parts.push(`description: ${first.getText()}`);
    rest = args.slice(1);
  }
  if (rest[0]) parts.push(`${schemaKey}: ${asSchema(run, rest[0])}`);
  if (rest[1]) parts.push(`annotations: ${rest[1].getText()}`);
  return `{ ${parts.join(', ')} }`;
}

function rewriteTool(run: Run, call: CallExpression, method: string): void {
  const args = call.getArguments();
  const name = args[0]?.getText() ?? "''";
  const handler = args.at(-1);
  if (!handler || args.length < 2) return;
  rewriteHandler(run, handler);
  const definition =
    method === 'registerTool'
      ? withSchemas(run, args[1] as Node)
      : legacyDefinition(run, args.slice(1, -1), 'inputSchema');
  const receiver = receiverOf(call);
  const handlerText = call.getArguments().at(-1)?.getText() ?? '';
  // v1 types structuredContent as any object; mcpkit infers it from the outputSchema, and a
  // v1 handler may not meet it (a string where the schema says an enum): a human must look.
  const typed = /\boutputSchema\s*:/.test(definition) && /\bstructuredContent\b/.test(handlerText);
  const replaced = call.replaceWithText(
    args.length === 2
      ? `${receiver}.tool(${name}, ${handlerText})`
      : `${receiver}.tool(${name}, ${definition}, ${handlerText})`,
  );
  if (typed)
    todo(
      run,
      replaced,
      'mcpkit types structuredContent by outputSchema: check the handler returns that type',
    );
}

function rewritePrompt(run: Run, call: CallExpression, method: string): void {
  const args = call.getArguments();
  const handler = args.at(-1);
  if (!handler || args.length < 2) return;
  const definition =
    method === 'registerPrompt'
      ? withSchemas(run, args[1] as Node)
      : legacyDefinition(run, args.slice(1, -1), 'argsSchema');
  const receiver = receiverOf(call);
  call.replaceWithText(
    `${receiver}.prompt(${args[0]?.getText()}, ${args.length === 2 ? '{}' : definition}, ${handler.getText()})`,
  );
}
