/**
 * `mcpkit codegen`: TypeScript for a server's tools. Each tool's `inputSchema` and
 * `outputSchema` become interfaces (through json-schema-to-typescript), and
 * `createTools(client)` returns a typed proxy over an mcpkit `Client`. Tools are sorted by
 * name and nothing time-dependent is written, so the same server gives the same file.
 */
import type { Tool } from '../core/index.js';
import type { ClientFlags } from './args.js';
import { CliError } from './errors.js';

/** Largest schema (as JSON text) turned into types; a bigger one is typed `unknown`. */
const MAX_SCHEMA_CHARS = 256 * 1024;
/** Deepest schema nesting kept; deeper subschemas are typed `unknown`. */
const MAX_DEPTH = 48;
/** Keywords of json-schema-to-typescript that would paste a server's text into the code. */
const UNSAFE_KEYWORDS = new Set(['tsType', 'tsEnumNames', '$id', 'id']);

type Compile = (typeof import('json-schema-to-typescript'))['compile'];

/** Connects per `flags`, lists the tools and returns the generated module's text. */
export async function codegenCommand(flags: ClientFlags): Promise<string> {
  const { withSession } = await import('./session.js');
  const { tools, server } = await withSession(flags, async ({ client, signal }) => ({
    tools: await client.listTools({ signal }),
    server: client.serverInfo,
  }));
  const source = server ? `${server.name} ${server.version}` : 'an MCP server';
  return generateTools(tools, source, (issue) => process.stderr.write(`mcpkit: codegen: ${issue}\n`));
}

/**
 * The module for `tools`: per tool `<Name>Arguments`, `<Name>Result` (with an `outputSchema`),
 * the `ToolTypes` map and `createTools`. `source` names the server in the header.
 * A schema that cannot be typed (a local `$ref` that does not resolve, say) does not stop
 * the others: its type is an open object (`unknown` for a result), with a comment saying
 * why, and `onIssue` is told the tool, the schema and the reason.
 */
export async function generateTools(
  tools: readonly Tool[],
  source: string,
  onIssue: (issue: string) => void = () => undefined,
): Promise<string> {
  const compile = await loadCompiler();
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = typeNames(sorted.map((t) => t.name));
  const parts: string[] = [];
  for (const tool of sorted) {
    const base = names.get(tool.name) ?? 'Tool';
    const typed = { compile, tool: tool.name, onIssue };
    parts.push(
      await typeOrFallback(typed, { schema: tool.inputSchema, name: `${base}Arguments`, prefix: base }),
    );
    if (tool.outputSchema)
      parts.push(
        await typeOrFallback(typed, {
          schema: tool.outputSchema,
          name: `${base}Result`,
          prefix: `${base}Result`,
        }),
      );
  }
  return [header(source), ...parts, toolTypes(sorted, names), proxy(sorted, names)].join('\n');
}

async function loadCompiler(): Promise<Compile> {
  try {
    return (await import('json-schema-to-typescript')).compile;
  } catch (error) {
    throw new CliError(
      '`mcpkit codegen` needs json-schema-to-typescript: npm install -D json-schema-to-typescript',
      {
        cause: error,
        kind: 'failure',
      },
    );
  }
}

/** A PascalCase identifier for each tool name, unique (a number appended on a clash). */
function typeNames(tools: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const name of tools) {
    const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
    let base = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || 'Tool';
    if (/^[0-9]/.test(base)) base = `Tool${base}`;
    let unique = base;
    for (let n = 2; taken.has(unique); n++) unique = `${base}${n}`;
    taken.add(unique);
    out.set(name, unique);
  }
  return out;
}

/** {@link typeOf}, or when the schema cannot be typed an open type with the reason in a comment. */
async function typeOrFallback(
  typed: { compile: Compile; tool: string; onIssue: (issue: string) => void },
  what: { schema: unknown; name: string; prefix: string },
): Promise<string> {
  try {
    return await typeOf(typed.compile, what);
  } catch (error) {
    const which = what.name.endsWith('Result') ? 'outputSchema' : 'inputSchema';
    const reason = oneLine((error as Error).message ?? String(error)).slice(0, 300);
    typed.onIssue(`tool ${JSON.stringify(typed.tool)}: its ${which} could not be typed: ${reason}`);
    const open = which === 'inputSchema' ? '{ [key: string]: unknown }' : 'unknown';
    return `/** Not typed: the ${which} of ${oneLine(JSON.stringify(typed.tool))}: ${reason} */\nexport type ${what.name} = ${open};\n`;
  }
}

async function typeOf(
  compile: Compile,
  what: { schema: unknown; name: string; prefix: string },
): Promise<string> {
  const text = JSON.stringify(what.schema) ?? '';
  const schema = text.length > MAX_SCHEMA_CHARS ? {} : cleaned(what.schema, 0);
  const root = typeof schema === 'object' && schema !== null ? schema : {};
  const code = await compile({ ...root, title: what.name } as never, what.name, {
    bannerComment: '',
    additionalProperties: true,
    strictIndexSignatures: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    format: true,
    style: { printWidth: 100, singleQuote: true },
    // Definitions are named after their tool, so two tools' `$defs` never clash.
    // (the library names each definition by an `$id` it derives from the definition's key).
    customName: (schema) => {
      const id = typeof schema.$id === 'string' ? schema.$id : undefined;
      return id === undefined || id === what.name ? undefined : `${what.prefix}${pascal(id)}`;
    },
    $refOptions: { resolve: { external: false, file: false, http: false } } as never,
  });
  return code.trim() + '\n';
}

function pascal(key: string): string {
  return (
    key
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('') || 'Def'
  );
}

/**
 * A copy of a server's schema that is safe to compile: no code-injecting keywords, no
 * `*\/` in comments, no references outside the schema, nested titles dropped (only the
 * tool and its definitions name types), depth bounded.
 */
function cleaned(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return depth > MAX_DEPTH ? [] : value.map((v) => cleaned(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return {};
  // Entries, not assignment: a member named `__proto__` stays an own key.
  const out: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    if (UNSAFE_KEYWORDS.has(key) || (key === 'title' && depth > 0)) continue;
    if (key === '$ref' && (typeof v !== 'string' || !v.startsWith('#'))) continue;
    if ((key === 'description' || key === 'title') && typeof v === 'string')
      out.push([key, v.replaceAll('*/', '*\\/')]);
    else if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties')
      out.push([
        key,
        isRecord(v) ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, cleaned(s, depth + 1)])) : {},
      ]);
    else out.push([key, cleaned(v, depth + 1)]);
  }
  return Object.fromEntries(out);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function header(source: string): string {
  return `// Generated by \`mcpkit codegen\` from ${oneLine(source)}. Do not edit: run it again.
import type { Client, ResultOf, ToolCallOptions } from 'mcpkit/client';

/** A \`tools/call\` result of either era. */
export type ToolResult = ResultOf<'tools/call'>;
`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replaceAll('*/', '*\\/');
}

function doc(description: string | undefined, indent: string): string {
  if (!description) return '';
  const lines = description.replaceAll('*/', '*\\/').split(/\r?\n|[\u2028\u2029]/);
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** A tool name as a property key of a type: bare when it is an identifier, else quoted. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A tool name as a key of an object literal: as {@link key}, but `__proto__` computed, since
 * `{ __proto__: x }` and `{ "__proto__": x }` set the prototype instead of a property.
 */
function literalKey(name: string): string {
  return name === '__proto__' ? `[${JSON.stringify(name)}]` : key(name);
}

function resultType(tool: Tool, names: Map<string, string>): string {
  return tool.outputSchema ? `${names.get(tool.name)}Result` : 'ToolResult';
}

function toolTypes(tools: readonly Tool[], names: Map<string, string>): string {
  const rows = tools.map(
    (t) => `  ${key(t.name)}: { arguments: ${names.get(t.name)}Arguments; result: ${resultType(t, names)} };`,
  );
  return `/** Each tool's arguments and result (its structured content when it declares an outputSchema). */
export interface ToolTypes {
${rows.join('\n')}
}
`;
}

function proxy(tools: readonly Tool[], names: Map<string, string>): string {
  const required = (t: Tool) => Array.isArray(t.inputSchema.required) && t.inputSchema.required.length > 0;
  const methods = tools.map((t) => {
    const args = `args${required(t) ? '' : '?'}: ${names.get(t.name)}Arguments`;
    return `${doc(t.description, '  ')}  ${key(t.name)}(${args}, options?: ToolCallOptions): Promise<${resultType(t, names)}>;`;
  });
  const entries = tools.map((t) => {
    const then = t.outputSchema ? `.then((r) => r.structuredContent as ${resultType(t, names)})` : '';
    return `    ${literalKey(t.name)}: (args, options) => call(${JSON.stringify(t.name)}, args, options)${then},`;
  });
  return `/** The server's tools as typed methods. */
export interface Tools {
${methods.join('\n')}
}

/** The error a tool call rejects with when the tool reports \`isError: true\`. */
export class ToolError extends Error {
  readonly result: ToolResult;
  constructor(result: ToolResult) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : \`[\${c.type}]\`)).join(' ');
    super(text || 'the tool reported an error');
    this.result = result;
  }
}

/**
 * Typed methods over \`client\` (connected): each calls the tool of that name and resolves
 * with its structured result (or, without an outputSchema, the whole result).
 * @throws ToolError when the tool reports \`isError: true\`.
 */
export function createTools(client: Client): Tools {
  const call = async (name: string, args: object | undefined, options: ToolCallOptions | undefined): Promise<ToolResult> => {
    const result = await client.callTool(name, args as { [key: string]: unknown } | undefined, options);
    if (result.isError === true) throw new ToolError(result);
    return result;
  };
  return {
${entries.join('\n')}
  };
}
`;
}
