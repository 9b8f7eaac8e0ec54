/**
 * The tool registry: definitions compiled once (schemas, validators), listing in
 * registration order, and calling with argument and output validation.
 * Source: 2026-07-28 server/tools (input validation errors are tool results with
 * `isError: true` so the model can correct itself; `structuredContent` conforms to
 * `outputSchema`).
 */
import { checkToolHeaders } from '../core/wire.js';
import { McpError, McpkitError } from '../core/errors.js';
import { isObject } from '../core/jsonrpc.js';
import type { ContentBlock, Icon, Tool, ToolAnnotations } from '../core/types/index.js';
import {
  compileSchema,
  type CompiledSchema,
  type InferOutput,
  type SchemaInput,
  type SchemaLimits,
} from '../validation/index.js';
import type { RequestContext } from './context.js';
import { isInputRequired, type InputRequiredAnswer } from './mrtr.js';

/**
 * A tool result as a handler writes it (the SDK adds `resultType` and `_meta` as needed).
 * `S` is the type of `structuredContent`, inferred from the tool's `outputSchema`.
 */
export interface ToolResult<S = Record<string, unknown>> {
  content: ContentBlock[];
  structuredContent?: S;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The `structuredContent` type of a tool: inferred from `outputSchema`, or none. */
export type StructuredOf<Out> = [Out] extends [SchemaInput] ? InferOutput<Out> : never;

/** An error result of a tool with an `outputSchema`: no `structuredContent` needed. */
export interface ToolErrorResult {
  content: ContentBlock[];
  isError: true;
  _meta?: Record<string, unknown>;
}

/** What a handler of a tool without `outputSchema` returns: a string (one text block) or a result. */
export type PlainToolReturn = string | ToolResult | InputRequiredAnswer;

/**
 * What a handler of a tool with an `outputSchema` of type `S` returns: the structured value
 * alone (mcpkit adds a text block holding its JSON, as server/tools "Structured Content"
 * recommends), a result whose `structuredContent` is an `S`, or an error result.
 */
export type StructuredToolReturn<S> =
  S | (ToolResult<S> & { structuredContent: S }) | ToolErrorResult | InputRequiredAnswer;

/**
 * What a tool handler returns, by output schema ({@link PlainToolReturn} without one,
 * {@link StructuredToolReturn} with one). Either way it may be the `input_required` answer
 * that `ctx.elicit`/`sample`/`listRoots` produce on modern requests.
 */
export type ToolReturn<Out extends SchemaInput | undefined = undefined> = [Out] extends [SchemaInput]
  ? StructuredToolReturn<InferOutput<Out>>
  : PlainToolReturn;

/** How to describe a tool. Schemas are Standard Schemas (zod v4…) or JSON Schema objects. */
export interface ToolDefinition<
  In extends SchemaInput | undefined = undefined,
  Out extends SchemaInput | undefined = undefined,
> {
  title?: string;
  description?: string;
  /** Arguments schema; defaults to an object schema that accepts no particular properties. */
  inputSchema?: In;
  /** Schema of `structuredContent`; when set, every successful result must carry it. */
  outputSchema?: Out;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** OAuth scopes a caller needs to call it over authorized HTTP (403 `insufficient_scope` otherwise). */
  scopes?: string[];
  /**
   * Whether a call may run as a task (Tasks extension, `io.modelcontextprotocol/tasks`):
   * `forbidden` (default), `optional` (a task when the client negotiated the extension) or
   * `required` (a client without the extension gets -32021). See {@link TaskPolicy}.
   */
  task?: TaskSupport | TaskPolicy<In>;
}

/** How a tool takes part in the Tasks extension. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool's task policy in full. */
export interface TaskPolicy<In extends SchemaInput | undefined = undefined> {
  support: TaskSupport;
  /**
   * The call may run again from the start on another instance if its instance died
   * (its recorded input answers are replayed). Default false: such a task fails.
   */
  retrySafe?: boolean;
  /**
   * Runs on the `tools/call` itself, before the task is created; its `ctx.elicit` /
   * `ctx.sample` / `ctx.listRoots` use the request's multi round-trip (SEP-2663
   * "Composition with MRTR"). The answers it gathers are replayed to the handler by key.
   */
  prepare?: (args: ToolArgs<In>, context: RequestContext) => unknown;
}

/** The arguments a handler receives: the input schema's output type, or a plain record. */
export type ToolArgs<In> = [In] extends [SchemaInput] ? InferOutput<In> : Record<string, unknown>;

/** A tool handler. `args` is typed from the input schema, the return from the output schema. */
export type ToolHandler<
  In extends SchemaInput | undefined = undefined,
  Out extends SchemaInput | undefined = undefined,
> = (args: ToolArgs<In>, context: RequestContext) => ToolReturn<Out> | Promise<ToolReturn<Out>>;

/** A tool handler with its types erased, as the registry stores it (see {@link bindTool}). */
export type BoundToolHandler = (
  args: unknown,
  context: RequestContext,
) => Promise<ToolResult | InputRequiredAnswer>;

/**
 * Erases a typed handler once, at registration: the bound handler takes the arguments the
 * registry's compiled input schema accepted and returns a normalised result.
 * `structured` says whether the tool has an `outputSchema` (a bare structured value is
 * then wrapped, see {@link ToolReturn}).
 */
export function bindTool<In extends SchemaInput | undefined, Out extends SchemaInput | undefined>(
  handler: ToolHandler<In, Out>,
  structured: boolean,
): BoundToolHandler {
  // Only arguments that passed the compiled input schema of `In` reach here.
  return async (args, context) => toResult(await handler(args as ToolArgs<In>, context), structured);
}

interface RegisteredTool {
  wire: Tool;
  input: CompiledSchema;
  output: CompiledSchema | undefined;
  handler: BoundToolHandler;
  task: TaskPolicy<SchemaInput | undefined> | undefined;
}

// server/tools "Tool Names": 1–128 characters SHOULD be A-Z a-z 0-9 _ - . only; other
// characters are allowed (HTTP carries them Base64-encoded in Mcp-Name), control characters are not.
const NAME = /^[^\p{Cc}]{1,128}$/u;
/** The input schema of a tool that declares none: any object (checked without ajv). */
const ANY_OBJECT: CompiledSchema = {
  jsonSchema: { type: 'object' },
  validate: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ok: true, value }
      : { ok: false, issues: ['the arguments must be an object'] },
};

/** Holds a server's tools. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #limits: SchemaLimits | undefined;

  /** `limits` bound every tool's schemas (see `ServerLimits.schema`). */
  constructor(limits?: SchemaLimits) {
    this.#limits = limits;
  }
  #list: Tool[] = [];

  /** Registers a tool. @throws McpkitError `INVALID_DEFINITION` (bad name, duplicate, bad schema). */
  add(
    name: string,
    definition: ToolDefinition<SchemaInput | undefined, SchemaInput | undefined>,
    handler: BoundToolHandler,
  ): void {
    if (!NAME.test(name))
      throw invalidDef(
        `tool name ${JSON.stringify(name)} must be 1–128 characters, none of them control characters`,
      );
    if (this.#tools.has(name)) throw invalidDef(`tool '${name}' is already registered`);
    const input =
      definition.inputSchema === undefined ? ANY_OBJECT : compileSchema(definition.inputSchema, this.#limits);
    if (input.jsonSchema.type !== 'object')
      throw invalidDef(`tool '${name}': inputSchema must have type "object"`);
    const headers = checkToolHeaders(input.jsonSchema);
    // A client must reject such a tool (streamable-http "Schema Extension"), so never list one.
    if (!headers.ok) throw invalidDef(`tool '${name}': ${headers.reason}`);
    const output =
      definition.outputSchema === undefined
        ? undefined
        : compileSchema(definition.outputSchema, this.#limits);
    const wire = toWire(name, definition, input, output);
    const task = typeof definition.task === 'string' ? { support: definition.task } : definition.task;
    this.#tools.set(name, { wire, input, output, handler, task });
    this.#list = [...this.#list, wire];
  }

  /** Removes a tool; returns whether it existed. */
  remove(name: string): boolean {
    const existed = this.#tools.delete(name);
    if (existed) this.#list = this.#list.filter((t) => t.name !== name);
    return existed;
  }

  get size(): number {
    return this.#tools.size;
  }

  /** The task policy of a tool (undefined for an unknown tool or one that never runs as a task). */
  taskPolicy(name: unknown): TaskPolicy<SchemaInput | undefined> | undefined {
    const task = typeof name === 'string' ? this.#tools.get(name)?.task : undefined;
    return task?.support === 'forbidden' ? undefined : task;
  }

  /** True when some tool may run as a task. */
  get hasTaskTools(): boolean {
    for (const tool of this.#tools.values()) if (tool.task && tool.task.support !== 'forbidden') return true;
    return false;
  }

  /** Validates a tool's arguments; undefined when they do not match (the call then reports it). */
  async checkArgs(name: string, args: unknown): Promise<{ value: unknown } | undefined> {
    const checked = await this.#tools.get(name)?.input.validate(args ?? {});
    return checked?.ok ? { value: checked.value } : undefined;
  }

  /** Tools in registration order (the array is replaced, never mutated, on change). */
  list(): readonly Tool[] {
    return this.#list;
  }

  /**
   * Calls a tool.
   * @throws McpError -32602 for an unknown tool or non-object arguments. Invalid
   *   arguments and handler failures come back as results with `isError: true`.
   */
  async call(
    name: unknown,
    args: unknown,
    context: RequestContext,
  ): Promise<ToolResult | InputRequiredAnswer> {
    if (typeof name !== 'string')
      throw McpError.of('InvalidParams', 'tools/call needs the tool name as a string');
    const tool = this.#tools.get(name);
    if (!tool) throw McpError.of('InvalidParams', `Unknown tool: ${name}`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw McpError.of('InvalidParams', 'arguments must be an object');
    }
    const checked = await tool.input.validate(args ?? {});
    if (!checked.ok)
      return errorResult(`Invalid arguments for tool ${tool.wire.name}: ${checked.issues.join('; ')}`);
    const result = await runHandler(tool, checked.value, context);
    if (isInputRequired(result) || !tool.output || result.isError) return result;
    return checkOutput(tool, result);
  }
}

async function runHandler(
  tool: RegisteredTool,
  args: unknown,
  context: RequestContext,
): Promise<ToolResult | InputRequiredAnswer> {
  try {
    return await tool.handler(args, context);
  } catch (error) {
    // Protocol errors stay protocol errors; anything else is a tool execution error the model can see.
    if (error instanceof McpError || isControlSignal(error)) throw error;
    return errorResult(
      `Tool ${tool.wire.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Errors used for control flow (e.g. multi-round-trip input requests) pass through untouched. */
function isControlSignal(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { mcpkitSignal?: unknown }).mcpkitSignal === true
  );
}

async function checkOutput(tool: RegisteredTool, result: ToolResult): Promise<ToolResult> {
  if (result.structuredContent === undefined) {
    throw new McpkitError(
      'INVALID_RESULT',
      `Tool ${tool.wire.name} has an outputSchema but returned no structuredContent`,
    );
  }
  const checked = await tool.output!.validate(result.structuredContent);
  if (!checked.ok) {
    throw new McpkitError(
      'INVALID_RESULT',
      `Tool ${tool.wire.name} returned structuredContent that does not match its outputSchema: ${checked.issues.join('; ')}`,
    );
  }
  return result;
}

function toResult(value: unknown, structured: boolean): ToolResult | InputRequiredAnswer {
  if (isInputRequired(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isObject(value) && isFullResult(value, structured)) return value as unknown as ToolResult;
  if (isObject(value) && structured)
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  throw new McpkitError(
    'INVALID_RESULT',
    structured
      ? 'A tool handler with an outputSchema must return its structured value or a result object'
      : 'A tool handler must return a string or an object with a content array',
  );
}

/**
 * With an `outputSchema`, an object is a full result only when it has a `content` array and
 * says so (`structuredContent` present, or `isError: true`); otherwise it is the structured
 * value itself. Without one, any object with a `content` array is a result.
 */
function isFullResult(value: Record<string, unknown>, structured: boolean): boolean {
  if (!Array.isArray(value.content)) return false;
  return !structured || 'structuredContent' in value || value.isError === true;
}

/** A tool result reporting an error to the model (`isError: true`). */
export function errorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function toWire(
  name: string,
  d: ToolDefinition<SchemaInput | undefined, SchemaInput | undefined>,
  input: CompiledSchema,
  output: CompiledSchema | undefined,
): Tool {
  const wire: Tool = { name, inputSchema: input.jsonSchema as Tool['inputSchema'] };
  if (d.title !== undefined) wire.title = d.title;
  if (d.description !== undefined) wire.description = d.description;
  if (output) wire.outputSchema = output.jsonSchema as NonNullable<Tool['outputSchema']>;
  if (d.annotations !== undefined) wire.annotations = d.annotations;
  if (d.icons !== undefined) wire.icons = d.icons;
  if (d._meta !== undefined) wire._meta = d._meta;
  return wire;
}

function invalidDef(message: string): McpkitError {
  return new McpkitError('INVALID_DEFINITION', message);
}
