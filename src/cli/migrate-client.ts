/**
 * The client rewrites of `mcpkit migrate` beyond the request methods: v1's generic
 * `client.request(request, ResultSchema)`, `setNotificationHandler` for log messages (an
 * `onNotification` option in mcpkit), `onerror` (mcpkit has none: a failure rejects the call
 * it belongs to), and `transport.close()` of a connected transport (`client.close()`).
 */
import type { CallExpression, Node, ObjectLiteralExpression } from 'ts-morph';
import { todo, type Run } from './migrate-core.js';

/** v1 result schemas of `client.request(...)`, with the mcpkit method and its arguments. */
const REQUESTS: Record<string, { method: string; args: readonly string[] }> = {
  CallToolResultSchema: { method: 'callTool', args: ['name', 'arguments'] },
  GetPromptResultSchema: { method: 'getPrompt', args: ['name', 'arguments'] },
  ReadResourceResultSchema: { method: 'readResource', args: ['uri'] },
  ListToolsResultSchema: { method: 'listToolsPage', args: ['cursor'] },
  ListPromptsResultSchema: { method: 'listPromptsPage', args: ['cursor'] },
  ListResourcesResultSchema: { method: 'listResourcesPage', args: ['cursor'] },
  ListResourceTemplatesResultSchema: { method: 'listResourceTemplatesPage', args: ['cursor'] },
};

/** The object literal `node` is, or a `const` initialised with one. */
function literalOf(run: Run, node: Node): ObjectLiteralExpression | undefined {
  const { Node } = run.ts;
  if (Node.isObjectLiteralExpression(node)) return node;
  if (!Node.isIdentifier(node)) return undefined;
  const decl = node.getDefinitionNodes()[0];
  const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  return init && Node.isObjectLiteralExpression(init) ? init : undefined;
}

/**
 * `client.request({ method, params }, CallToolResultSchema)` as `client.callTool(name, args)`,
 * and the like for each v1 result schema; arguments read from `params` (of a literal, or
 * through the variable); a missing optional one is left out.
 */
export function rewriteRequest(run: Run, call: CallExpression, receiver: string): void {
  const { Node } = run.ts;
  const [request, schema, options] = call.getArguments();
  const target = schema ? REQUESTS[schema.getText()] : undefined;
  if (!request || !target) return;
  if (options) return todo(run, call, 'request options: see RequestOptions (timeoutMs, signal, onprogress)');
  const literal = literalOf(run, request);
  const paramsNode = literal?.getProperty('params');
  const params =
    paramsNode && Node.isPropertyAssignment(paramsNode) ? paramsNode.getInitializer() : undefined;
  const fields = params && Node.isObjectLiteralExpression(params) ? params : undefined;
  const inline = Node.isObjectLiteralExpression(request);
  const args: string[] = [];
  for (const key of target.args) {
    const known = fields?.getProperty(key);
    if (fields && !known) break; // an optional argument the literal leaves out
    args.push(
      inline && known && Node.isPropertyAssignment(known)
        ? (known.getInitializer()?.getText() ?? '')
        : `${request.getText()}.params.${key}`,
    );
  }
  call.replaceWithText(`${receiver}.${target.method}(${args.join(', ')})`);
}

/** Whether every name `node` uses is declared inside it or before `position`. */
function declaredBefore(run: Run, node: Node, position: number): boolean {
  return node.getDescendantsOfKind(run.ts.SyntaxKind.Identifier).every((id) => {
    const decl = id.getDefinitionNodes()[0];
    return (
      !decl ||
      decl.getAncestors().includes(node) ||
      decl.getSourceFile() !== run.file ||
      decl.getEnd() <= position
    );
  });
}

/** The `createClient({...})` options of the client held in `name`, last before `node`. */
function clientOptions(run: Run, name: string, node: Node): ObjectLiteralExpression | undefined {
  const { Node, SyntaxKind } = run.ts;
  const made = run.file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => {
    if (call.getExpression().getText() !== 'createClient' || call.getEnd() > node.getStart()) return false;
    const parent = call.getParent();
    if (Node.isVariableDeclaration(parent)) return parent.getName() === name;
    return Node.isBinaryExpression(parent) && parent.getLeft().getText() === name;
  });
  const options = made.at(-1)?.getArguments()[0];
  return options && Node.isObjectLiteralExpression(options) ? options : undefined;
}

/**
 * `client.setNotificationHandler(LoggingMessageNotificationSchema, handler)` as the client's
 * `onNotification` option, filtered to `notifications/message`, when the handler uses
 * nothing declared after the client was built.
 */
export function rewriteNotificationHandler(run: Run, call: CallExpression, receiver: string): void {
  const [schema, handler] = call.getArguments();
  const statement = call.getParentIfKind(run.ts.SyntaxKind.ExpressionStatement);
  if (!schema || !handler || schema.getText() !== 'LoggingMessageNotificationSchema' || !statement)
    return todo(run, call, 'notification handlers: the onNotification option of createClient');
  const options = clientOptions(run, receiver, call);
  if (!options || !declaredBefore(run, handler, options.getStart()))
    return todo(run, call, 'log messages: move this handler into createClient({ onNotification })');
  const body = `(notification) => {\nif (notification.method === 'notifications/message') (${handler.getText()})({ method: notification.method, params: notification.params ?? {} });\n}`;
  options.addPropertyAssignment({ name: 'onNotification', initializer: body });
  statement.remove();
}

/** `client.onerror = ...`: mcpkit has no such hook, so the assignment becomes a TODO comment. */
export function rewriteOnError(run: Run, node: Node): void {
  const { Node } = run.ts;
  if (!Node.isBinaryExpression(node) || !/^[\w$]+\.onerror$/.test(node.getLeft().getText())) return;
  const statement = node.getParentIfKind(run.ts.SyntaxKind.ExpressionStatement);
  if (!statement) return;
  const message = 'no onerror in mcpkit: a failure rejects the call it belongs to; this handler was';
  const code = statement
    .getText()
    .split('\n')
    .map((line) => `// ${line}`);
  statement.replaceWithText([`// TODO(mcpkit): ${message}:`, ...code].join('\n'));
}

/** `transport.close()` of a transport passed to `client.connect(transport)`, as `client.close()`. */
export function rewriteTransportClose(run: Run): void {
  const { Node, SyntaxKind } = run.ts;
  const owners = new Map<string, string>();
  for (const call of run.file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [transport] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') continue;
    const owner = callee.getExpression().getText();
    if (transport && Node.isIdentifier(transport) && !run.servers.has(owner))
      owners.set(transport.getText(), owner);
  }
  for (const call of run.file.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
    const match = /^([\w$]+)\.close$/.exec(call.getExpression().getText());
    const owner = match?.[1] ? owners.get(match[1]) : undefined;
    if (owner && call.getArguments().length === 0) call.replaceWithText(`${owner}.close()`);
  }
}
