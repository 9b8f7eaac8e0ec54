/**
 * The types of tools as authors write them (definitions, handlers, what handlers return)
 * and the binder that erases them once at registration.
 * Source: 2026-07-28 server/tools ("Structured Content", "Output Schema").
 */
import { LocalError, type ContentBlock, type Icon, type ToolAnnotations } from '../core/index.js';
import { isObject } from '../core/runtime.js';
import type { InferOutput, SchemaInput } from '../validation/index.js';
import type { RequestContext } from './context.js';
import { isInputRequired, type InputRequiredAnswer } from './mrtr.js';

const PASS_THROUGH = Symbol('mcpkit.passThrough');

/**
 * Marks `result` (changed in place) as one the server sends as it is: no normalising, no
 * output-schema check, its own `resultType` kept. Internal: the gateway answers a relayed
 * task this way (SEP-2663 "Task Creation"); typed as a handler return so handlers can return it.
 */
export function passThrough(result: Record<string, unknown>): ToolResult {
  (result as Record<symbol, unknown>)[PASS_THROUGH] = true;
  return result as unknown as ToolResult;
}

/** True for a result marked by {@link passThrough}. */
export function isPassThrough(value: object): boolean {
  return PASS_THROUGH in value;
}

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
  /** Server-side labels that transforms and per-caller rules filter on (never sent on the wire). */
  tags?: string[];
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
  // Not an async frame (one promise fewer per call); a synchronous throw still reaches the
  // registry's try around the call, as a rejection did.
  return (args, context) => {
    const value = handler(args as ToolArgs<In>, context);
    return isThenable(value)
      ? Promise.resolve(value).then((v) => toResult(v, structured))
      : Promise.resolve(toResult(value, structured));
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function toResult(value: unknown, structured: boolean): ToolResult | InputRequiredAnswer {
  if (isInputRequired(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isObject(value) && isFullResult(value, structured)) return value as unknown as ToolResult;
  if (isObject(value) && isPassThrough(value)) return value as unknown as ToolResult;
  // An array is a structured value too: 2026-07-28 lets `outputSchema` have any root (SEP-2106).
  if (structured && (isObject(value) || Array.isArray(value)))
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value as Record<string, unknown>,
    };
  throw new LocalError(
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
