/**
 * Checks a tool's `structuredContent` against the `outputSchema` the server declared for it.
 * Each schema is compiled once (per tool definition) and reused for every call.
 * Source: 2026-07-28 server/tools "Output schema" (clients SHOULD validate structured
 * results against the output schema).
 */
import { McpkitError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import type { Tool } from '../core/types/index.js';
import { compileJsonSchema, type JsonSchemaValidator, type SchemaLimits } from '../validation/index.js';

type Validator = JsonSchemaValidator;

/** The tools the client last listed, and their compiled output validators. */
export class ToolOutputChecker {
  #tools = new Map<string, Tool>();
  readonly #compiled = new WeakMap<Tool, Validator>();
  #listed = false;
  #listing: Promise<unknown> | undefined;
  readonly #limits: SchemaLimits;

  /** `limits` bound each `outputSchema` before it is compiled (the server's schemas are untrusted). */
  constructor(limits: SchemaLimits = {}) {
    this.#limits = limits;
  }

  /**
   * Makes sure the tool's definition is known: when it is not and no complete list has been
   * recorded since the last change, runs `list` (once for concurrent callers).
   * @throws whatever `list` throws.
   */
  async ensureListed(name: string, list: () => Promise<unknown>): Promise<void> {
    if (this.#tools.has(name) || this.#listed) return;
    this.#listing ??= list().finally(() => (this.#listing = undefined));
    await this.#listing;
  }

  /** Records tools from one page (`complete` false) or from a whole list (replaces all). */
  record(tools: readonly Tool[], complete: boolean): void {
    if (complete) this.#tools = new Map();
    for (const tool of tools) this.#tools.set(tool.name, tool);
    if (complete) this.#listed = true;
  }

  /** Forgets every tool (their list changed); the next unknown tool triggers a fresh list. */
  forget(): void {
    this.#tools = new Map();
    this.#listed = false;
  }

  /**
   * Validates a `tools/call` result. Skipped when the tool is unknown, declares no
   * `outputSchema`, or the result has `isError: true`.
   * @throws McpkitError `INVALID_RESULT` when `structuredContent` is missing or does not
   *   match; `INVALID_DEFINITION` when the declared schema cannot be compiled.
   */
  async check(name: string, result: Params): Promise<void> {
    const tool = this.#tools.get(name);
    if (!tool?.outputSchema || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new McpkitError(
        'INVALID_RESULT',
        `tool ${name} declares an outputSchema but returned no structuredContent`,
      );
    }
    const outcome = await this.#validator(tool)(result.structuredContent);
    if (!outcome.ok) {
      throw new McpkitError(
        'INVALID_RESULT',
        `tool ${name} returned structuredContent that does not match its outputSchema: ${outcome.issues.join('; ')}`,
      );
    }
  }

  #validator(tool: Tool): Validator {
    let validate = this.#compiled.get(tool);
    if (!validate) {
      validate = compileJsonSchema(tool.outputSchema as object, this.#limits);
      this.#compiled.set(tool, validate);
    }
    return validate;
  }
}
