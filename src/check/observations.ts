/**
 * What the checker saw, gathered by the probes before any rule runs: rules are pure
 * functions over these plain values, so each one is a small unit that is easy to test.
 */
import type { Era } from '../core/index.js';

/** A JSON object as received from the server (never trusted: read with own-key checks). */
export type Json = Record<string, unknown>;

/** HTTP facts of one exchange over Streamable HTTP. */
export interface HttpFacts {
  status: number;
  /** The response's media type, lower-case, without parameters; '' when absent. */
  contentType: string;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
}

/** One request sent and what came back for it. */
export interface Answer {
  /** The request as sent. */
  request: Json;
  /** The JSON-RPC response with the request's id, when one arrived. */
  response?: Json;
  /** Why no usable response arrived: timeout, closed channel, oversized or not JSON. */
  failure?: string;
  /** Set over Streamable HTTP. */
  http?: HttpFacts;
}

/** One message on the wire, in either direction, with the step that sent or received it. */
export interface WireRecord {
  direction: 'sent' | 'received';
  message: unknown;
  /** The revision whose schema applies; undefined until the era is known. */
  revision?: string;
}

/** The list methods and the result key holding their items. */
export const LIST_METHODS = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
} as const;

/** One of the four list methods. */
export type ListMethod = keyof typeof LIST_METHODS;

/** A list walked page by page. */
export interface ListWalk {
  method: ListMethod;
  pages: Answer[];
  /** The items of every page, in order. */
  items: Json[];
  /** How the walk ended: the last page, a cursor seen before, the page bound, or an error. */
  ended: 'done' | 'loop' | 'limit' | 'error';
  /** The item names (or URIs) of a second walk, to check the order is stable. */
  again?: string[];
}

/** A `--call` tool call and its answer. */
export interface ToolCall {
  tool: string;
  args: Json;
  answer: Answer;
}

/** The probes that must change nothing, by name. */
export type ProbeName =
  'unknownMethod' | 'unknownTool' | 'malformedParams' | 'invalidArguments' | 'unknownVersion';

/** Everything seen of the server on one era. */
export interface EraSeen {
  era: Era;
  revision: string;
  /** The `server/discover` or `initialize` exchange. */
  opening: Answer;
  capabilities: Json;
  lists: Partial<Record<ListMethod, ListWalk>>;
  calls: ToolCall[];
  probes: Partial<Record<ProbeName, Answer>>;
}

/** Streamable HTTP probes and what each got (status, content type, the JSON-RPC body). */
export interface HttpSeen {
  /** Whether the URL's host is a loopback address (Origin checks matter most there). */
  loopback: boolean;
  /** The probe name → its answer. */
  probes: Partial<Record<HttpProbeName, Answer>>;
  /** The exchanges that carried a request of ours, for content-type and status rules. */
  exchanges: Answer[];
  /** The `Mcp-Param-*` probes, one per `--call` tool with a mirrored argument. */
  params?: ParamProbe[];
  /** The server answered 401: the challenge and the protected-resource metadata found. */
  unauthorized?: { challenge: string; metadataUrl?: string; metadata?: unknown; failure?: string };
}

/**
 * The `Mcp-Param-*` probes of one `--call` tool: the call with every mirrored header right,
 * then with one of them disagreeing with the body, then with that one left out.
 */
export interface ParamProbe {
  tool: string;
  /** The header the last two probes change, e.g. `Mcp-Param-Region`. */
  header: string;
  accepted: Answer;
  mismatched: Answer;
  missing: Answer;
}

/** The HTTP probes by name. */
export type HttpProbeName =
  | 'badOrigin'
  | 'rebinding'
  | 'methodHeaderMismatch'
  | 'missingMethodHeader'
  | 'nameHeaderMismatch'
  | 'noSession'
  | 'unknownSession'
  | 'initializedNotification';

/** An era the server did not serve, with what it answered instead. */
export interface EraRefused {
  era: Era;
  answer: Answer;
}

/** All the checker saw, the input of every rule. */
/** What the session-state probe (check/session-state.ts) saw: the answers of the `--call` sequence in each run. */
export interface SessionStateSeen {
  /** How the server was reached: a stream transport (stdio: one connection, one client) or Streamable HTTP. */
  over: 'stream' | 'http';
  /** On legacy session A. */
  first: Answer[];
  /** On a new legacy session B, after the first run. */
  fresh: Answer[];
  /** On session A again, after B's run. */
  again: Answer[];
  /**
   * The sequence twice in a row on the modern era, after the legacy runs: on one new connection
   * (stream) or as modern requests with the same credentials (HTTP). Absent when the modern
   * era was not served (or not checked).
   */
  modern?: { first: Answer[]; again: Answer[] } | undefined;
}

export interface Observations {
  eras: EraSeen[];
  refused: EraRefused[];
  wire: WireRecord[];
  http?: HttpSeen;
  /** Frames that were not JSON-RPC (or too large), as text excerpts. */
  junk: string[];
  /** The session-state probe (legacy served and `--call` given; check/session-state.ts). */
  sessionState?: SessionStateSeen | undefined;
}
