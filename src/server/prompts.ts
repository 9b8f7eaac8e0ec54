/**
 * The prompt registry. Arguments are declared as a list or derived from a schema whose
 * properties are strings; missing required arguments are answered with -32602.
 * Source: 2026-07-28 server/prompts.
 */
import {
  WireError,
  LocalError,
  type Icon,
  type Prompt,
  type PromptArgument,
  type PromptMessage,
} from '../core/index.js';
import {
  compileSchema,
  type SchemaLimits,
  type CompiledSchema,
  type InferOutput,
  type SchemaInput,
} from '../validation/index.js';
import type { Completer } from './completion.js';
import type { RequestContext } from './context.js';
import type { PromptEntry } from './catalogue/types.js';
import { isInputRequired, type InputRequiredAnswer } from './mrtr.js';
import { validateOwn } from './tools.js';

/** What a prompt handler returns: a full result or just the messages. */
export type PromptReturn =
  { description?: string; messages: PromptMessage[]; _meta?: Record<string, unknown> } | PromptMessage[];

/** How to describe a prompt. Give `arguments` or an `argsSchema` (object of string properties). */
export interface PromptDefinition<S extends SchemaInput | undefined = undefined> {
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  argsSchema?: S;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** Completers for arguments, by argument name. */
  complete?: Record<string, Completer>;
  /** OAuth scopes a caller needs to get it over authorized HTTP (403 `insufficient_scope` otherwise). */
  scopes?: string[];
  /** Server-side labels that transforms and per-caller rules filter on (never sent on the wire). */
  tags?: string[];
}

/** The arguments a prompt handler receives: `argsSchema`'s output type, or strings by name. */
export type PromptArgs<S> = [S] extends [SchemaInput] ? InferOutput<S> : Record<string, string>;

/** A prompt handler; `args` is typed from `argsSchema` when given. */
export type PromptHandler<S> = (
  args: PromptArgs<S>,
  context: RequestContext,
) => PromptReturn | InputRequiredAnswer | Promise<PromptReturn | InputRequiredAnswer>;

/** A prompt handler with its types erased, as the registry stores it (see {@link bindPrompt}). */
export type BoundPromptHandler = (
  args: unknown,
  context: RequestContext,
) => Promise<PromptReturn | InputRequiredAnswer>;

/** Erases a typed prompt handler once; the registry calls it with checked arguments only. */
export function bindPrompt<S>(handler: PromptHandler<S>): BoundPromptHandler {
  // Only arguments that passed the prompt's argument checks (and argsSchema) reach here.
  return async (args, context) => handler(args as PromptArgs<S>, context);
}

interface RegisteredPrompt {
  wire: Prompt;
  schema: CompiledSchema | undefined;
  complete: Record<string, Completer>;
  handler: BoundPromptHandler;
  entry: PromptEntry;
}

/** Holds a server's prompts. */
export class PromptRegistry {
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #limits: SchemaLimits | undefined;

  /** `limits` bound every prompt's argument schema (see `ServerLimits.schema`). */
  constructor(limits?: SchemaLimits) {
    this.#limits = limits;
  }
  #list: Prompt[] = [];
  #entries: PromptEntry[] | undefined;
  #revision = 0;

  /** Counts prompt additions and removals: a cache of the list keys on it. */
  get revision(): number {
    return this.#revision;
  }

  /** The prompts as catalogue entries, in registration order (made once per change). */
  entries(): readonly PromptEntry[] {
    return (this.#entries ??= [...this.#prompts.values()].map((p) => p.entry));
  }

  /** Registers a prompt. @throws LocalError `INVALID_DEFINITION` for duplicates or bad schemas. */
  add(
    name: string,
    definition: PromptDefinition<SchemaInput | undefined>,
    handler: RegisteredPrompt['handler'],
  ): void {
    if (this.#prompts.has(name)) throw invalidDef(`prompt '${name}' is already registered`);
    const schema =
      definition.argsSchema === undefined
        ? undefined
        : compileSchema(definition.argsSchema, this.#limits, `prompt '${name}' argsSchema`);
    const args = definition.arguments ?? (schema ? argumentsFromSchema(schema.jsonSchema) : undefined);
    const { complete = {}, argsSchema: _s, arguments: _a, scopes, tags = [], ...rest } = definition;
    const wire: Prompt = { name, ...rest, ...(args ? { arguments: args } : {}) };
    const entry: PromptEntry = {
      prompt: wire,
      tags: [...tags],
      scopes,
      get: (a, ctx) => this.get(name, a, ctx),
      completer: (argument) => this.completer(name, argument),
    };
    this.#prompts.set(name, { wire, schema, complete, handler, entry });
    this.#list = [...this.#list, wire];
    this.#entries = undefined;
    this.#revision++;
  }

  remove(name: string): boolean {
    const existed = this.#prompts.delete(name);
    if (existed) {
      this.#list = this.#list.filter((p) => p.name !== name);
      this.#entries = undefined;
      this.#revision++;
    }
    return existed;
  }

  get size(): number {
    return this.#prompts.size;
  }
  list(): readonly Prompt[] {
    return this.#list;
  }
  has(name: string): boolean {
    return this.#prompts.has(name);
  }
  completer(name: string, argument: string): Completer | undefined {
    const complete = this.#prompts.get(name)?.complete;
    return complete && Object.hasOwn(complete, argument) ? complete[argument] : undefined;
  }

  /** Renders a prompt. @throws WireError -32602 for an unknown prompt or invalid arguments. */
  async get(
    name: unknown,
    args: unknown,
    context: RequestContext,
  ): Promise<{ description?: string; messages: PromptMessage[] } | InputRequiredAnswer> {
    if (typeof name !== 'string')
      throw WireError.of('InvalidParams', 'prompts/get needs the prompt name as a string');
    const prompt = this.#prompts.get(name);
    if (!prompt) throw WireError.of('InvalidParams', `Unknown prompt: ${name}`);
    const checked = await checkArguments(prompt, args ?? {});
    const value = await prompt.handler(checked, context);
    if (isInputRequired(value)) return value;
    return Array.isArray(value) ? { messages: value } : value;
  }
}

async function checkArguments(prompt: RegisteredPrompt, args: unknown): Promise<unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw WireError.of('InvalidParams', 'arguments must be an object of strings');
  }
  const missing = (prompt.wire.arguments ?? [])
    .filter((a) => a.required && !Object.hasOwn(args, a.name))
    .map((a) => a.name);
  if (missing.length > 0) {
    throw WireError.of(
      'InvalidParams',
      `Missing required arguments for prompt ${prompt.wire.name}: ${missing.join(', ')}`,
    );
  }
  if (!prompt.schema) return args;
  const checked = await validateOwn(prompt.schema, `prompt '${prompt.wire.name}' argsSchema`, args);
  if (!checked.ok)
    throw WireError.of(
      'InvalidParams',
      `Invalid arguments for prompt ${prompt.wire.name}: ${checked.issues.join('; ')}`,
    );
  return checked.value;
}

function argumentsFromSchema(schema: Record<string, unknown>): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, { description?: string; title?: string }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, p]) => {
    const arg: PromptArgument = { name, required: required.has(name) };
    if (p.description !== undefined) arg.description = p.description;
    if (p.title !== undefined) arg.title = p.title;
    return arg;
  });
}

function invalidDef(message: string): LocalError {
  return new LocalError('INVALID_DEFINITION', message);
}
