/**
 * What a server offers, as composition sees it: a {@link Catalogue} of entries (tools,
 * prompts, resources, resource templates), each with its wire definition, its tags, who may
 * see it, and how to run it. Own registrations, mounted servers and transforms all produce
 * and consume catalogues; a {@link Transform} is a function from one catalogue to another.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources.
 */
import type {
  AuthInfo,
  ClientCapabilities,
  Era,
  Implementation,
  Prompt,
  PromptMessage,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Tool,
} from '../../core/index.js';
import type { SchemaInput } from '../../validation/index.js';
import type { Completer } from '../completion.js';
import type { RequestContext } from '../context.js';
import type { InputRequiredAnswer } from '../mrtr.js';
import type { TaskPolicy, ToolResult } from '../tool-types.js';
import type { UriTemplate } from '../uri-template.js';

/**
 * Who is asking, as a per-caller rule reads it: a handler's {@link RequestContext}, a
 * listen stream's request, or a legacy session (its `initialize`'s identity and capabilities).
 */
export interface Caller {
  readonly auth: AuthInfo | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly era: Era;
}

/** Whether `caller` may see and use an entry; evaluated per request. */
export type Visibility = (caller: Caller) => boolean;

/** What every entry carries besides its definition. */
interface EntryBase {
  /** Server-side labels for filtering (never sent on the wire). */
  readonly tags: readonly string[];
  /** Who may see and use the entry; absent: everyone. */
  readonly visible?: Visibility | undefined;
  /** OAuth scopes a caller needs (see `ToolDefinition.scopes`). */
  readonly scopes?: readonly string[] | undefined;
}

/** A tool of a catalogue. */
export interface ToolEntry extends EntryBase {
  /** The `tools/list` entry (modern form; legacy sessions get its projection). */
  readonly tool: Tool;
  readonly task?: TaskPolicy<SchemaInput | undefined> | undefined;
  /**
   * Runs the tool: checks `args` against `tool.inputSchema` (invalid arguments are an
   * `isError` result) and, when it has an `outputSchema`, the result against it.
   * @throws WireError for a protocol error; LocalError `INVALID_RESULT` for a bad result.
   */
  call(args: unknown, ctx: RequestContext): Promise<ToolResult | InputRequiredAnswer>;
  /** Checks arguments as {@link call} would, without running the tool (a task's `prepare` gets them). */
  checkArgs?(args: unknown): Promise<{ value: unknown } | undefined>;
}

/** What rendering a prompt gives. */
export interface PromptRendering {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}

/** A prompt of a catalogue. */
export interface PromptEntry extends EntryBase {
  readonly prompt: Prompt;
  /** Renders the prompt. @throws WireError -32602 for missing or invalid arguments. */
  get(args: unknown, ctx: RequestContext): Promise<PromptRendering | InputRequiredAnswer>;
  completer(argument: string): Completer | undefined;
}

/** What reading a resource gives. */
export interface ReadResult {
  contents: ResourceContents[];
  _meta?: Record<string, unknown>;
}

/** A fixed resource of a catalogue. */
export interface ResourceEntry extends EntryBase {
  readonly resource: Resource;
  /** Reads it; `uri` is the URI as listed. */
  read(ctx: RequestContext): Promise<ReadResult | InputRequiredAnswer>;
}

/** A resource template of a catalogue. */
export interface TemplateEntry extends EntryBase {
  readonly template: ResourceTemplate;
  /** The compiled `template.uriTemplate`. */
  readonly matcher: UriTemplate;
  /** Reads a URI `matcher` matched, with the variables it matched. */
  read(
    uri: string,
    variables: Record<string, string>,
    ctx: RequestContext,
  ): Promise<ReadResult | InputRequiredAnswer>;
  completer(variable: string): Completer | undefined;
}

/** What a server offers, in listing order. */
export interface Catalogue {
  readonly tools: readonly ToolEntry[];
  readonly prompts: readonly PromptEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly TemplateEntry[];
}

/**
 * Reshapes a catalogue (rename, hide, filter, add…). Applied when the catalogue it reads
 * changes, not per request: per-caller rules go into entries' `visible`.
 * @throws LocalError `INVALID_DEFINITION` for a transform that cannot apply (it is then refused
 *   where it was added, `server.transform()` or `server.mount()`).
 */
export type Transform = (catalogue: Catalogue) => Catalogue;

/** Any entry of a catalogue. */
export type CatalogueEntry = ToolEntry | PromptEntry | ResourceEntry | TemplateEntry;

/** True when `caller` may see and use `entry` (see {@link Visibility}). */
export function isVisible(entry: CatalogueEntry, caller: Caller): boolean {
  return entry.visible === undefined || entry.visible(caller);
}
