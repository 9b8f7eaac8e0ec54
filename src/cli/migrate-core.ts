/**
 * What the rewrites of `mcpkit migrate` share: the state of one run over a file, and how a
 * rewrite that has no safe form leaves its `TODO(mcpkit)` comment.
 */
import type { CallExpression, Node, SourceFile } from 'ts-morph';

/** ts-morph's runtime, loaded by the command (ts-morph is an optional dependency). */
export type TsMorph = typeof import('ts-morph');

/** One rewrite run over a file (its TODOs are read back from the comments it leaves). */
export interface Run {
  readonly file: SourceFile;
  readonly ts: TsMorph;
  /** Variables holding a v1 `McpServer`. */
  readonly servers: Set<string>;
  /** The zod namespace in scope (`z`), added as an import when a shape needs it. */
  zod: string | undefined;
}

/** Leaves a `// TODO(mcpkit): …` comment above the statement holding `node`, once. */
export function todo(run: Run, node: Node, message: string): void {
  const statement =
    node.getParentWhile((parent) => !run.ts.Node.isSourceFile(parent) && !run.ts.Node.isBlock(parent)) ??
    node;
  const text = `// TODO(mcpkit): ${message}`;
  if (!statement.getFullText().includes(text)) statement.replaceWithText(`${text}\n${statement.getText()}`);
}

/** An object literal of zod fields (a v1 raw shape) as `z.object({...})`. */
export function asSchema(run: Run, shape: Node): string {
  if (!run.ts.Node.isObjectLiteralExpression(shape)) return shape.getText();
  run.zod ??= '__mcpkit_z';
  return `${run.zod}.object(${shape.getText()})`;
}

/** The object a method is called on: `server` of `server.tool(...)`. */
export function receiverOf(call: CallExpression): string {
  return call
    .getExpression()
    .getText()
    .replace(/\.\w+$/, '');
}
