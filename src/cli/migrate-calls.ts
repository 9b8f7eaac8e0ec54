/**
 * The rewrites of `mcpkit migrate` inside calls: a v1 handler's `extra` as mcpkit's `ctx`,
 * resource registrations, and the client's request methods (v1 takes one params object,
 * mcpkit positional arguments).
 */
import type { CallExpression, Node, ObjectLiteralExpression } from 'ts-morph';
import { receiverOf, todo, type Run } from './migrate-core.js';

/** A property of an object literal as source text, if it is a plain `key: value`. */
function prop(run: Run, object: ObjectLiteralExpression, key: string): string | undefined {
  const found = object.getProperty(key);
  if (found && run.ts.Node.isPropertyAssignment(found)) return found.getInitializer()?.getText();
  if (found && run.ts.Node.isShorthandPropertyAssignment(found)) return found.getName();
  return undefined;
}

/** The parameter names of a handler, adding `_args` and `ctx` where v1 code left them out. */
function contextName(run: Run, handler: Node): string | undefined {
  const { Node } = run.ts;
  if (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler)) return undefined;
  const params = handler.getParameters();
  if (params[1]) return params[1].getName();
  if (!params[0]) handler.addParameter({ name: '_args' });
  handler.addParameter({ name: 'ctx' });
  return 'ctx';
}

/** `extra.sendNotification({ method: 'notifications/progress', params })` as `ctx.progress(...)`. */
function progressCall(run: Run, call: CallExpression, ctx: string): boolean {
  const [message] = call.getArguments();
  if (!message || !run.ts.Node.isObjectLiteralExpression(message)) return false;
  if (prop(run, message, 'method') !== "'notifications/progress'") return false;
  const params = message.getProperty('params');
  const value = params && run.ts.Node.isPropertyAssignment(params) ? params.getInitializer() : undefined;
  if (!value || !run.ts.Node.isObjectLiteralExpression(value)) return false;
  const options = ['total', 'message'].flatMap((key) => {
    const text = prop(run, value, key);
    return text === undefined ? [] : [`${key}: ${text}`];
  });
  call.replaceWithText(`${ctx}.progress(${prop(run, value, 'progress') ?? '0'}, { ${options.join(', ')} })`);
  return true;
}

/**
 * `server.sendLoggingMessage({ level, data }, sessionId)` on a v1 server, as the arguments
 * of `ctx.log(level, data)` (mcpkit sends it on the stream of the request being handled).
 */
function logCall(run: Run, call: CallExpression): string | undefined {
  const match = /^([\w$]+)\.sendLoggingMessage$/.exec(call.getExpression().getText());
  const [message] = call.getArguments();
  if (!match?.[1] || !run.servers.has(match[1]) || !message) return undefined;
  if (!run.ts.Node.isObjectLiteralExpression(message)) return undefined;
  const level = prop(run, message, 'level');
  const data = prop(run, message, 'data');
  const logger = prop(run, message, 'logger');
  if (level === undefined || data === undefined) return undefined;
  return [level, data, logger].filter((part) => part !== undefined).join(', ');
}

/**
 * Rewrites a v1 tool or prompt callback for mcpkit: `extra._meta` is `ctx.meta`,
 * `extra.authInfo` is `ctx.auth`, a progress notification is `ctx.progress`, a log message
 * is `ctx.log`, and
 * `server.server.createMessage`/`elicitInput` are `ctx.sample`/`ctx.elicit`.
 */
export function rewriteHandler(run: Run, handler: Node): void {
  const { Node, SyntaxKind } = run.ts;
  const calls = handler.getDescendantsOfKind(SyntaxKind.CallExpression).reverse();
  const asks = calls.filter(
    (call) =>
      /\.server\.(createMessage|elicitInput|listRoots)$/.test(call.getExpression().getText()) ||
      logCall(run, call) !== undefined,
  );
  const params =
    Node.isArrowFunction(handler) || Node.isFunctionExpression(handler) ? handler.getParameters() : [];
  const ctx = asks.length > 0 ? contextName(run, handler) : params[1]?.getName();
  if (!ctx) return;
  for (const call of calls) {
    if (call.wasForgotten()) continue;
    const text = call.getExpression().getText();
    const ask = /\.server\.(createMessage|elicitInput|listRoots)$/.exec(text)?.[1];
    const args = call.getArguments().map((arg) => arg.getText());
    const log = logCall(run, call);
    if (log) call.replaceWithText(`${ctx}.log(${log})`);
    else if (ask) {
      const method = { createMessage: 'sample', elicitInput: 'elicit', listRoots: 'listRoots' }[ask];
      const replaced = call.replaceWithText(`${ctx}.${method}(${args[0] ?? ''})`);
      if (ask === 'createMessage') firstBlock(run, handler, replaced);
    } else if (text === `${ctx}.sendNotification` && !progressCall(run, call, ctx))
      todo(run, call, 'notifications from a handler: ctx.progress(...) or ctx.log(level, data)');
    else if (text === `${ctx}.sendRequest`)
      todo(run, call, 'requests to the client: ctx.elicit, ctx.sample or ctx.listRoots');
  }
  for (const access of handler.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).reverse()) {
    if (access.wasForgotten() || access.getExpression().getText() !== ctx) continue;
    const renamed: Record<string, string> = {
      _meta: 'meta',
      authInfo: 'auth',
      requestId: 'requestId',
      signal: 'signal',
    };
    const name = access.getName();
    if (renamed[name] !== undefined && renamed[name] !== name)
      access.getNameNode().replaceWithText(renamed[name]);
  }
}

/**
 * v1 types a sampling result without tools as one content block; the spec (and mcpkit) allow
 * several. Where the result is held in a variable, its `content` reads go through the first.
 */
function firstBlock(run: Run, handler: Node, call: Node): void {
  const { SyntaxKind } = run.ts;
  const decl = call
    .getParentIfKind(SyntaxKind.AwaitExpression)
    ?.getParentIfKind(SyntaxKind.VariableDeclaration);
  const statement = decl?.getVariableStatement();
  const name = decl?.getName();
  if (!statement || !name || !/^[\w$]+$/.test(name)) return;
  const block = `${name}Content`;
  for (const access of handler.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).reverse())
    if (access.getExpression().getText() === name && access.getName() === 'content')
      access.replaceWithText(block);
  statement.replaceWithText(
    `${statement.getText()}\n// A sampling result may hold several content blocks; this reads the first.\n` +
      `const ${block} = Array.isArray(${name}.content) ? ${name}.content[0] : ${name}.content;`,
  );
}

/** A v1 resource callback takes a URL; mcpkit's takes the URI string. */
function uriAsString(run: Run, handler: Node): void {
  const { Node, SyntaxKind } = run.ts;
  if (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler)) return;
  const uri = handler.getParameters()[0]?.getName();
  if (!uri) return;
  for (const access of handler.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).reverse())
    if (access.getExpression().getText() === uri && access.getName() === 'href') access.replaceWithText(uri);
}

/** `registerResource(name, uri | new ResourceTemplate(t, opts), metadata, cb)` and `resource(...)`. */
export function rewriteResource(run: Run, call: CallExpression): void {
  const { Node } = run.ts;
  const args = call.getArguments();
  const [name, target] = args;
  const handler = args.at(-1);
  if (!name || !target || !handler || args.length < 3) return;
  uriAsString(run, handler);
  const metadata = args.length > 3 ? args[2] : undefined;
  if (metadata && !Node.isObjectLiteralExpression(metadata))
    return todo(run, call, 'resource metadata: pass an object literal');
  const props = [`name: ${name.getText()}`, ...(metadata?.getProperties().map((p) => p.getText()) ?? [])];
  const receiver = receiverOf(call);
  if (Node.isNewExpression(target) && target.getExpression().getText() === 'ResourceTemplate') {
    const [template, options] = target.getArguments();
    if (options && Node.isObjectLiteralExpression(options)) {
      const list = prop(run, options, 'list');
      if (list !== undefined && list !== 'undefined')
        todo(run, call, 'a template `list` callback: register the listed resources with server.resource');
      const complete = prop(run, options, 'complete');
      if (complete !== undefined) props.push(`complete: ${complete}`);
    }
    call.replaceWithText(
      `${receiver}.resourceTemplate(${template?.getText()}, { ${props.join(', ')} }, ${handler.getText()})`,
    );
  } else
    call.replaceWithText(
      `${receiver}.resource(${target.getText()}, { ${props.join(', ')} }, ${handler.getText()})`,
    );
}

/** The client's v1 request methods: one params object, list results as one page. */
export function rewriteClientCall(run: Run, call: CallExpression, method: string): void {
  const [params, second, third] = call.getArguments();
  const receiver = receiverOf(call);
  const object = params && run.ts.Node.isObjectLiteralExpression(params) ? params : undefined;
  if (method.startsWith('list')) {
    const cursor = object ? prop(run, object, 'cursor') : undefined;
    if (params && !object)
      return todo(run, call, `${method}(params): pass params.cursor to ${method}Page(cursor)`);
    call.replaceWithText(`${receiver}.${method}Page(${cursor ?? ''})`);
    return;
  }
  if (!object) return;
  if (third || (method !== 'callTool' && second))
    return todo(run, call, 'request options: see RequestOptions (timeoutMs, signal, onprogress)');
  const first = { callTool: 'name', getPrompt: 'name', readResource: 'uri' }[method] ?? 'name';
  const rest = method === 'readResource' ? undefined : prop(run, object, 'arguments');
  const text = prop(run, object, first);
  if (text === undefined) return;
  call.replaceWithText(
    `${receiver}.${method}(${[text, rest].filter((part) => part !== undefined).join(', ')})`,
  );
}
