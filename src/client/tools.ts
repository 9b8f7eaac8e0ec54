/**
 * `tools/call` as the client makes it: the tools last listed and the check of a result's
 * `structuredContent` against the tool's `outputSchema` (listing the tools first when the
 * tool is unknown), each schema compiled once per tool definition; and the Tasks extension
 * declared for a call that allows a task.
 * Source: 2026-07-28 server/tools "Output schema" (clients SHOULD validate structured
 * results against the output schema); the Tasks extension (SEP-2663).
 */
import { LocalError, type Params, type RequestOptions, type Tool } from '../core/index.js';
import { declaration, tasksExtension } from './extension.js';
import { compileJsonSchema, type JsonSchemaValidator, type SchemaLimits } from '../validation/index.js';
import type { Connection } from './connection.js';
import { listAll } from './lists.js';
import { legacyOnlyInputWarning } from './legacy-only-input.js';
import { TaskHandle, taskReferenceOf, type TaskPort } from './tasks.js';

/** Options of `Client.callTool`. */
export interface ToolCallOptions extends RequestOptions {
  /** `'allow'`: declare the Tasks extension; the server may answer with a task (a `TaskHandle`). */
  task?: 'allow' | 'never';
}

/** The Tasks extension as a call that allows a task declares it in its client capabilities. */
const TASKS = declaration(tasksExtension);

/** The params of one `tools/call`. */
export interface ToolCallParams extends Params {
  name: string;
  arguments?: { [key: string]: unknown };
}

const MAX_WARNED = 100;

/** What {@link ToolCalls} works with; `warn` gets advice about a server (`onWarning`). */
interface ToolCallsSetup {
  limits: SchemaLimits | undefined;
  maxPages: number;
  tasks: TaskPort;
  warn?: ((message: string) => void) | undefined;
}

/** The client's tool calls and the tool definitions their results are checked against. */
export class ToolCalls {
  #tools = new Map<string, Tool>();
  readonly #compiled = new WeakMap<Tool, JsonSchemaValidator>();
  #listed = false;
  #listing: Promise<unknown> | undefined;
  readonly #limits: SchemaLimits;
  readonly #maxPages: number;
  readonly #tasks: TaskPort;
  readonly #warn: ((message: string) => void) | undefined;
  readonly #warned = new Set<string>();

  /**
   * `limits` bound each `outputSchema` before it is compiled (the server's schemas are
   * untrusted; default 256 KiB of JSON text); `maxPages` bounds the listing of the tools;
   * `tasks` is what the handle of a task a call created works through.
   */
  constructor(setup: ToolCallsSetup) {
    this.#warn = setup.warn;
    this.#limits = { maxBytes: 256 * 1024, ...setup.limits };
    this.#maxPages = setup.maxPages;
    this.#tasks = setup.tasks;
  }

  /**
   * `tools/call` on `connection`. A call with `task: 'allow'` that the server answers
   * with a task (`resultType: "task"`) gives a {@link TaskHandle}; any other result is
   * checked against the tool's `outputSchema` (see `Client.callTool`).
   * @throws LocalError `INVALID_RESULT` on a missing or mismatching `structuredContent`;
   *   errors of the listing and of the call.
   */
  async call(
    connection: Connection,
    params: ToolCallParams,
    options: ToolCallOptions,
  ): Promise<Params | TaskHandle> {
    await this.#ensureListed(connection, params.name);
    const allow = options.task === 'allow';
    const call = allow ? { ...options, extensions: TASKS, acceptTask: true } : options;
    const result = await connection.roundTrip('tools/call', params, call).catch((error: unknown) => {
      if (connection.era === 'modern') this.#warnIfLegacyOnly(params.name, error);
      throw error;
    });
    if (connection.era === 'modern') this.#warnIfLegacyOnly(params.name, result);
    if (allow && result.resultType === 'task') {
      return new TaskHandle(this.#tasks, taskReferenceOf(params.name, result));
    }
    await this.#check(params.name, result);
    return result;
  }

  /** Warns once per tool (at most {@link MAX_WARNED} tools: the names are the server's). */
  #warnIfLegacyOnly(tool: string, outcome: unknown): void {
    if (this.#warned.has(tool) || this.#warned.size >= MAX_WARNED) return;
    const warning = legacyOnlyInputWarning(tool, outcome);
    if (warning === undefined) return;
    this.#warned.add(tool);
    this.#warn?.(warning);
  }

  /** Checks a completed tool result of a task, listing the tools first when `name` is unknown. */
  async checkResult(connection: Connection, name: string, result: Params): Promise<void> {
    await this.#ensureListed(connection, name);
    await this.#check(name, result);
  }

  /** Records listed tools: a whole list (`complete`) replaces what is known, a page adds to it. */
  record(tools: readonly Tool[], complete: boolean): void {
    if (complete) this.#tools = new Map();
    for (const tool of tools) this.#tools.set(tool.name, tool);
    if (complete) this.#listed = true;
  }

  /** Forgets every tool (a new connection, or a tools list_changed); the next unknown tool lists again. */
  forget(): void {
    this.#tools = new Map();
    this.#listed = false;
  }

  /**
   * Makes sure the tool's definition is known: when it is not and no complete list has been
   * recorded since the last change, lists every page (once for concurrent callers).
   */
  async #ensureListed(connection: Connection, name: string): Promise<void> {
    if (this.#tools.has(name) || this.#listed) return;
    const send = (params: Params | undefined) => connection.roundTrip('tools/list', params);
    this.#listing ??= listAll<Tool>(send, 'tools', this.#maxPages)
      .then((tools) => this.record(tools, true))
      .finally(() => (this.#listing = undefined));
    await this.#listing;
  }

  /**
   * Validates a `tools/call` result. Skipped when the tool is unknown, declares no
   * `outputSchema`, or the result has `isError: true`.
   * @throws LocalError `INVALID_RESULT` when `structuredContent` is missing or does not
   *   match; `INVALID_DEFINITION` when the declared schema cannot be compiled.
   */
  async #check(name: string, result: Params): Promise<void> {
    const tool = this.#tools.get(name);
    if (!tool?.outputSchema || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new LocalError(
        'INVALID_RESULT',
        `tool ${name} declares an outputSchema but returned no structuredContent`,
      );
    }
    const outcome = await this.#validator(tool)(result.structuredContent);
    if (!outcome.ok) {
      throw new LocalError(
        'INVALID_RESULT',
        `tool ${name} returned structuredContent that does not match its outputSchema: ${outcome.issues.join('; ')}`,
      );
    }
  }

  /** The tool's outputSchema validator; a schema that cannot compile fails every call, naming the tool. */
  #validator(tool: Tool): JsonSchemaValidator {
    let validate = this.#compiled.get(tool);
    if (!validate) {
      const named = (error: unknown): LocalError =>
        new LocalError(
          'INVALID_DEFINITION',
          `tool ${tool.name} outputSchema: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      try {
        const compiled = compileJsonSchema(tool.outputSchema as object, this.#limits);
        validate = async (value) => {
          try {
            return await compiled(value);
          } catch (error) {
            throw named(error);
          }
        };
      } catch (error) {
        const refusal = named(error);
        validate = () => Promise.reject(refusal);
      }
      this.#compiled.set(tool, validate);
    }
    return validate;
  }
}
