/**
 * The tool registry: definitions compiled once (schemas, validators), listing in
 * registration order, and calling with argument and output validation.
 * Source: 2026-07-28 server/tools (input validation errors are tool results with
 * `isError: true` so the model can correct itself; `structuredContent` conforms to
 * `outputSchema`).
 */
import { checkToolHeaders, isObject } from '../core/runtime.js';
import { WireError, LocalError, type Params, type Tool } from '../core/index.js';
import { legacyTool, legacyToolResult, type LegacyTool } from './legacy/projection.js';
import {
  compileSchema,
  type CompiledSchema,
  type SchemaInput,
  type SchemaLimits,
  type ValidationOutcome,
} from '../validation/index.js';
import type { RequestContext } from './context.js';
import type { ToolEntry } from './catalogue/types.js';
import { isInputRequired, type InputRequiredAnswer } from './mrtr.js';
import {
  isPassThrough,
  type BoundToolHandler,
  type TaskPolicy,
  type ToolDefinition,
  type ToolResult,
} from './tool-types.js';

interface RegisteredTool {
  wire: Tool;
  legacy: LegacyTool;
  input: CompiledSchema;
  output: CompiledSchema | undefined;
  handler: BoundToolHandler;
  task: TaskPolicy<SchemaInput | undefined> | undefined;
  entry: ToolEntry;
}

// server/tools "Tool Names": 1–128 characters SHOULD be A-Z a-z 0-9 _ - . only; other
// characters are allowed (HTTP carries them Base64-encoded in Mcp-Name), control characters are not.
const NAME = /^[^\p{Cc}]{1,128}$/u;

/**
 * Why `name` cannot name a tool (1–128 characters, no control characters: the rule above),
 * or undefined when it can. Shared by `server.tool()` and `transformTool`'s new names.
 */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name === 'string' && NAME.test(name)) return undefined;
  return `tool name ${JSON.stringify(name)} must be 1–128 characters, none of them control characters`;
}
/** The input schema of a tool that declares none: any object (checked without ajv). */
const ANY_OBJECT: CompiledSchema = {
  jsonSchema: { type: 'object' },
  validate: (value) =>
    isObject(value) ? { ok: true, value } : { ok: false, issues: ['the arguments must be an object'] },
};

/** Receives the cause of a tool handler's exception, with the request it failed (method and tool name). */
export type ToolFailureReport = (
  error: unknown,
  request: { method: string; params: { name: string } },
) => void;

/** Holds a server's tools. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #limits: SchemaLimits | undefined;

  readonly #report: ToolFailureReport | undefined;

  /**
   * `limits` bound every tool's schemas (see `ServerLimits.schema`); `report` receives the
   * cause of each exception a tool handler threw (the client gets its message only).
   */
  constructor(limits?: SchemaLimits, report?: ToolFailureReport) {
    this.#limits = limits;
    this.#report = report;
  }
  #list: Tool[] = [];
  #legacyList: Tool[] | undefined;
  #entries: ToolEntry[] | undefined;
  #revision = 0;

  /** Registers a tool. @throws LocalError `INVALID_DEFINITION` (bad name, duplicate, bad schema). */
  add(
    name: string,
    definition: ToolDefinition<SchemaInput | undefined, SchemaInput | undefined>,
    handler: BoundToolHandler,
  ): void {
    const problem = toolNameProblem(name);
    if (problem !== undefined) throw invalidDef(problem);
    if (this.#tools.has(name)) throw invalidDef(`tool '${name}' is already registered`);
    const input =
      definition.inputSchema === undefined
        ? ANY_OBJECT
        : compileSchema(definition.inputSchema, this.#limits, `tool '${name}' inputSchema`);
    if (input.jsonSchema.type !== 'object')
      throw invalidDef(`tool '${name}': inputSchema must have type "object"`);
    const headers = checkToolHeaders(input.jsonSchema);
    // A client must reject such a tool (streamable-http "Schema Extension"), so never list one.
    if (!headers.ok) throw invalidDef(`tool '${name}': ${headers.reason}`);
    const output =
      definition.outputSchema === undefined
        ? undefined
        : compileSchema(definition.outputSchema, this.#limits, `tool '${name}' outputSchema`);
    const wire = toWire(name, definition, { input, output });
    const task = typeof definition.task === 'string' ? { support: definition.task } : definition.task;
    const entry: ToolEntry = {
      tool: wire,
      tags: [...(definition.tags ?? [])],
      task,
      scopes: definition.scopes,
      call: (args, ctx) => this.call(name, args, ctx),
      checkArgs: (args) => this.checkArgs(name, args),
    };
    this.#tools.set(name, { wire, legacy: legacyTool(wire), input, output, handler, task, entry });
    this.#list = [...this.#list, wire];
    this.#legacyList = this.#entries = undefined;
    this.#revision++;
  }

  /** Removes a tool; returns whether it existed. */
  remove(name: string): boolean {
    const existed = this.#tools.delete(name);
    if (existed) {
      this.#list = this.#list.filter((t) => t.name !== name);
      this.#legacyList = this.#entries = undefined;
      this.#revision++;
    }
    return existed;
  }

  /** Counts tool additions and removals (announced or not): a cache of the list keys on it. */
  get revision(): number {
    return this.#revision;
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
  /** Whether some tool may run as a task (read on every call: cached per revision). */
  get hasTaskTools(): boolean {
    if (this.#taskToolsAt !== this.#revision) {
      this.#taskTools = [...this.#tools.values()].some((t) => t.task && t.task.support !== 'forbidden');
      this.#taskToolsAt = this.#revision;
    }
    return this.#taskTools;
  }
  #taskTools = false;
  #taskToolsAt = -1;

  /** Validates a tool's arguments; undefined when they do not match (the call then reports it). */
  async checkArgs(name: string, args: unknown): Promise<{ value: unknown } | undefined> {
    const checked = await this.#tools.get(name)?.input.validate(args ?? {});
    return checked?.ok ? { value: checked.value } : undefined;
  }

  /** The tools as catalogue entries, in registration order (made once per change). */
  entries(): readonly ToolEntry[] {
    return (this.#entries ??= [...this.#tools.values()].map((t) => t.entry));
  }

  /** Tools in registration order (the array is replaced, never mutated, on change). */
  list(): readonly Tool[] {
    return this.#list;
  }

  /** The same list as a legacy session sees it (see `legacy/projection.ts`), made once per change. */
  legacyList(): readonly Tool[] {
    return (this.#legacyList ??= this.#list.map((t) => this.#tools.get(t.name)!.legacy.tool));
  }

  /** A result of tool `name` as a legacy session receives it (`structuredContent` wrapped when needed). */
  legacyResult(name: unknown, result: Params): Params {
    const tool = typeof name === 'string' ? this.#tools.get(name) : undefined;
    return legacyToolResult(result, tool?.legacy.wrapsOutput ?? false);
  }

  /**
   * Calls a tool.
   * @throws WireError -32602 for an unknown tool or non-object arguments. Invalid
   *   arguments and handler failures come back as results with `isError: true`.
   */
  async call(
    name: unknown,
    args: unknown,
    context: RequestContext,
  ): Promise<ToolResult | InputRequiredAnswer> {
    if (typeof name !== 'string')
      throw WireError.of('InvalidParams', 'tools/call needs the tool name as a string');
    const tool = this.#tools.get(name);
    if (!tool) throw WireError.of('InvalidParams', `Unknown tool: ${name}`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw WireError.of('InvalidParams', 'arguments must be an object');
    }
    const pending = validateOwn(tool.input, `tool '${name}' inputSchema`, args ?? {});
    const checked = pending instanceof Promise ? await pending : pending;
    if (!checked.ok)
      return errorResult(`Invalid arguments for tool ${tool.wire.name}: ${checked.issues.join('; ')}`);
    let result: ToolResult | InputRequiredAnswer;
    try {
      result = await tool.handler(checked.value, context);
    } catch (error) {
      // A handler that gave up because its request was cancelled did nothing wrong: not logged.
      if (!(error instanceof WireError) && !context.signal.aborted)
        this.#report?.(error, { method: 'tools/call', params: { name } });
      return handlerFailed(tool, error);
    }
    if (isInputRequired(result) || !tool.output || result.isError || isPassThrough(result)) return result;
    return checkOutput(tool, result);
  }
}

// Protocol errors stay protocol errors; anything else is a tool execution error the model can
// see (2026-07-28 server/tools "Error Handling"): its message only, never its stack or cause.
function handlerFailed(tool: RegisteredTool, error: unknown): ToolResult {
  if (error instanceof WireError) throw error;
  return errorResult(
    `Tool ${tool.wire.name} failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * Validates with a schema of the server's own (`owner`: e.g. `tool 'add' inputSchema`).
 * What only ajv finds in a schema (a keyword the meta-schema refuses) surfaces on first
 * use: the request then fails with -32603 naming the owner and the fault, not a bare
 * internal error.
 */
export function validateOwn(
  schema: CompiledSchema,
  owner: string,
  value: unknown,
): ValidationOutcome | Promise<ValidationOutcome> {
  try {
    const pending = schema.validate(value);
    return pending instanceof Promise ? pending.catch((error: unknown) => refusedOwn(owner, error)) : pending;
  } catch (error) {
    return refusedOwn(owner, error);
  }
}

function refusedOwn(owner: string, error: unknown): never {
  if (!(error instanceof LocalError) || error.code !== 'INVALID_DEFINITION') throw error;
  throw WireError.of('InternalError', `${owner}: ${error.message}`);
}

async function checkOutput(tool: RegisteredTool, result: ToolResult): Promise<ToolResult> {
  if (result.structuredContent === undefined) {
    throw new LocalError(
      'INVALID_RESULT',
      `Tool ${tool.wire.name} has an outputSchema but returned no structuredContent`,
    );
  }
  const owner = `tool '${tool.wire.name}' outputSchema`;
  const checked = await validateOwn(tool.output!, owner, result.structuredContent);
  if (!checked.ok) {
    throw new LocalError(
      'INVALID_RESULT',
      `Tool ${tool.wire.name} returned structuredContent that does not match its outputSchema: ${checked.issues.join('; ')}`,
    );
  }
  return result;
}

/** A tool result reporting an error to the model (`isError: true`). */
export function errorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The `tools/list` entry of a definition, with its compiled schemas' JSON Schema. */
function toWire(
  name: string,
  d: ToolDefinition<SchemaInput | undefined, SchemaInput | undefined>,
  { input, output }: { input: CompiledSchema; output: CompiledSchema | undefined },
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

function invalidDef(message: string): LocalError {
  return new LocalError('INVALID_DEFINITION', message);
}
