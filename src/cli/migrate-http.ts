/**
 * The Express rewrites of `mcpkit migrate`: a v1 route that builds a
 * `StreamableHTTPServerTransport` and hands it the request becomes `app.all(path,
 * mcpExpress(server))`, since mcpkit's one endpoint answers every method on that path (POST,
 * GET streams, DELETE, legacy sessions and resumption) itself; the other routes on that path
 * go, and `createMcpExpressApp()` becomes a plain Express app.
 */
import type { CallExpression, Node } from 'ts-morph';
import { todo, type Run } from './migrate-core.js';

/** The Express route methods a v1 example mounts its transport on. */
const ROUTES = new Set(['post', 'get', 'delete', 'all', 'use']);

/** `app.post('/mcp', handler)` as its receiver, path and handler, when it is a route call. */
function route(run: Run, call: CallExpression): { app: string; path: string; handler: Node } | undefined {
  const { Node } = run.ts;
  const callee = call.getExpression();
  const [path, handler] = call.getArguments();
  if (!Node.isPropertyAccessExpression(callee) || !ROUTES.has(callee.getName())) return undefined;
  if (!path || !Node.isStringLiteral(path) || !handler || call.getArguments().length !== 2) return undefined;
  if (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler)) return undefined;
  return { app: callee.getExpression().getText(), path: path.getText(), handler };
}

/**
 * The server a route handler connects its transport to, as an expression to build once:
 * `getServer()` for `const server = getServer()` inside the handler, or the outer variable.
 */
function connectedServer(run: Run, handler: Node): string | undefined {
  const { Node, SyntaxKind } = run.ts;
  for (const call of handler.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') continue;
    const server = callee.getExpression();
    if (!Node.isIdentifier(server)) continue;
    const decl = server.getDefinitionNodes()[0];
    if (!decl || !decl.getAncestors().includes(handler)) return server.getText();
    const init = Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    // A factory call (`getServer()`) is built once; a server built inline per request is not.
    if (init && Node.isCallExpression(init)) return init.getText();
    return undefined;
  }
  return undefined;
}

/** Rewrites the Express wiring of the v1 Streamable HTTP transport; returns whether it did. */
export function rewriteExpress(run: Run): boolean {
  const { SyntaxKind } = run.ts;
  const mounted = new Set<string>();
  const calls = run.file.getDescendantsOfKind(SyntaxKind.CallExpression);
  for (const call of calls) {
    const found = call.wasForgotten() ? undefined : route(run, call);
    if (!found || !/\bnew StreamableHTTPServerTransport\b/.test(found.handler.getText())) continue;
    const server = connectedServer(run, found.handler);
    if (!server) {
      todo(run, call, 'serve with app.all(path, mcpExpress(server)) (mcpkit/express): build the server once');
      continue;
    }
    call.replaceWithText(`${found.app}.all(${found.path}, mcpExpress(${server}))`);
    mounted.add(`${found.app} ${found.path}`);
  }
  for (const call of run.file.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
    const found = call.wasForgotten() ? undefined : route(run, call);
    const statement = call.getParentIfKind(SyntaxKind.ExpressionStatement);
    // Every other route on a mounted path is answered by the mcpkit endpoint now.
    if (found && statement && mounted.has(`${found.app} ${found.path}`)) statement.remove();
  }
  expressApps(run);
  return mounted.size > 0;
}

/** `createMcpExpressApp()`: a plain Express app with its JSON body parser (mcpkit guards Host). */
function expressApps(run: Run): void {
  const { SyntaxKind } = run.ts;
  for (const call of run.file.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
    if (call.getExpression().getText() !== 'createMcpExpressApp') continue;
    if (call.getArguments().length > 0)
      todo(run, call, 'createMcpExpressApp(options): use express() and pass allowedHosts to mcpExpress');
    else call.replaceWithText('express().use(express.json())');
  }
}

/** Whether `name` is still used outside the import declarations (a rewrite left it in place). */
export function stillUsed(run: Run, name: string): boolean {
  const { SyntaxKind } = run.ts;
  return run.file
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .some((id) => id.getText() === name && !id.getFirstAncestorByKind(SyntaxKind.ImportDeclaration));
}
