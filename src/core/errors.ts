/**
 * The two error families of mcpkit (STYLE.md rule 5).
 *
 * - {@link WireError}: a wire error. It carries a JSON-RPC code and optional data and
 *   serialises itself into the `error` member of a JSON-RPC error response.
 * - {@link LocalError}: a local error (timeout, closed connection, invalid result…).
 *   It carries a string code and the cause, and never travels on the wire.
 *
 * {@link ERROR_TABLE} is the one place that maps each error name to its JSON-RPC code and
 * the HTTP status a Streamable HTTP server answers with.
 */

/**
 * Every JSON-RPC error code mcpkit knows, with the HTTP status used on Streamable HTTP.
 * Source: JSON-RPC 2.0 §5.1; MCP 2026-07-28 basic/index "Error Codes";
 * basic/transports/streamable-http "Server Validation"; 2025-11-25 server/resources.
 */
export const ERROR_TABLE = {
  ParseError: { code: -32700, httpStatus: 400 },
  InvalidRequest: { code: -32600, httpStatus: 400 },
  MethodNotFound: { code: -32601, httpStatus: 404 },
  InvalidParams: { code: -32602, httpStatus: 200 },
  InternalError: { code: -32603, httpStatus: 200 },
  HeaderMismatch: { code: -32020, httpStatus: 400 },
  MissingRequiredClientCapability: { code: -32021, httpStatus: 400 },
  UnsupportedProtocolVersion: { code: -32022, httpStatus: 400 },
  /** 2025-11-25 and earlier only; accepted on receipt, never emitted on the modern wire. */
  ResourceNotFound: { code: -32002, httpStatus: 200 },
  /** 2025-11-25 only. */
  UrlElicitationRequired: { code: -32042, httpStatus: 200 },
  // Refusals, by the HTTP status a Streamable HTTP server sends them with (RFC 9110 §15);
  // the JSON-RPC code is the one the body (or, on stdio, the error) carries.
  /** Host/Origin not allowed (DNS rebinding protection). */
  Forbidden: { code: -32600, httpStatus: 403 },
  /** A caller lacking OAuth scopes the feature needs (`data.requiredScopes`); HTTP answers a 403 challenge. */
  InsufficientScope: { code: -32600, httpStatus: 403 },
  /** A legacy session that is unknown, ended, or another principal's. */
  SessionNotFound: { code: -32600, httpStatus: 404 },
  /** An HTTP method the endpoint does not take (with `Allow`). */
  MethodNotAllowed: { code: -32600, httpStatus: 405 },
  /** `Accept` lacks a media type the endpoint answers with. */
  NotAcceptable: { code: -32600, httpStatus: 406 },
  /** A second GET stream on one legacy session. */
  Conflict: { code: -32600, httpStatus: 409 },
  /** A body over the endpoint's `maxBodyBytes`. */
  PayloadTooLarge: { code: -32600, httpStatus: 413 },
  /** A `Content-Type` other than `application/json`. */
  UnsupportedMediaType: { code: -32600, httpStatus: 415 },
  /** Over a per-principal quota (rate, requests in progress, sessions, listen streams, tasks); HTTP adds `Retry-After`. */
  TooManyRequests: { code: -32600, httpStatus: 429 },
  /** An unexpected failure outside any request's handler. */
  ServerError: { code: -32603, httpStatus: 500 },
  /** Too many sessions open, or a session store that failed. */
  ServiceUnavailable: { code: -32603, httpStatus: 503 },
} as const;

/** A name from {@link ERROR_TABLE}. */
export type ErrorName = keyof typeof ERROR_TABLE;

/** Codes that identify a modern (2026-07-28) peer when seen in reply to a modern probe. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ERROR_TABLE.HeaderMismatch.code,
  ERROR_TABLE.MissingRequiredClientCapability.code,
  ERROR_TABLE.UnsupportedProtocolVersion.code,
]);

/** The `error` member of a JSON-RPC error response. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Looks up the table entry for a JSON-RPC code, if mcpkit knows it. */
export function errorNameOf(code: number): ErrorName | undefined {
  for (const [name, entry] of Object.entries(ERROR_TABLE)) {
    if (entry.code === code) return name as ErrorName;
  }
  return undefined;
}

/** The HTTP status a Streamable HTTP server uses for an error code (200 for unknown codes). */
export function httpStatusOf(code: number): number {
  const name = errorNameOf(code);
  return name ? ERROR_TABLE[name].httpStatus : 200;
}

/**
 * A JSON-RPC error that travels on the wire.
 *
 * Throw it from a handler to answer with that code; anything else a handler throws is
 * answered with -32603 and a generic message, so internals never leak.
 * `httpStatus` overrides the table's status (a request missing its `_meta` fields gets
 * -32602 with status 400, for example).
 */
export class WireError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly httpStatus: number;

  constructor(code: number, message: string, options: { data?: unknown; httpStatus?: number } = {}) {
    super(message);
    this.name = 'WireError';
    this.code = code;
    this.data = options.data;
    this.httpStatus = options.httpStatus ?? httpStatusOf(code);
  }

  /**
   * Builds an error from a table name: `WireError.of('InvalidParams', 'bad cursor')`; its
   * `httpStatus` is that name's (several refusals share a code but not a status).
   */
  static of(name: ErrorName, message: string, data?: unknown): WireError {
    const { code, httpStatus } = ERROR_TABLE[name];
    return new WireError(code, message, data === undefined ? { httpStatus } : { data, httpStatus });
  }

  /** Rebuilds a wire error received from a peer. */
  static fromObject(error: ErrorObject): WireError {
    return new WireError(error.code, error.message, error.data === undefined ? {} : { data: error.data });
  }

  /** The JSON-RPC `error` member. */
  toJSON(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** -32602 for a request missing required `_meta` fields; status 400 on HTTP. */
export function missingMetaError(message: string): WireError {
  return new WireError(ERROR_TABLE.InvalidParams.code, message, { httpStatus: 400 });
}

/** -32022 with the `supported` and `requested` versions (versioning.mdx). */
export function unsupportedVersionError(requested: string, supported: readonly string[]): WireError {
  return WireError.of('UnsupportedProtocolVersion', 'Unsupported protocol version', {
    supported: [...supported],
    requested,
  });
}

/** -32021 naming the capabilities the request needs (basic/index "_meta"). */
export function missingCapabilityError(requiredCapabilities: Record<string, unknown>): WireError {
  return WireError.of('MissingRequiredClientCapability', 'Missing required client capability', {
    requiredCapabilities,
  });
}

// Codes outside the table: the ranges JSON-RPC reserves rather than single codes.

/** Whether `code` is in JSON-RPC 2.0's range for implementation-defined server errors (§5.1: -32000 to -32099). */
export function isServerErrorCode(code: number): boolean {
  return code <= -32000 && code >= -32099;
}

/** String codes of {@link LocalError}. */
export type LocalErrorCode =
  | 'TIMEOUT'
  | 'ABORTED'
  | 'CONNECTION_CLOSED'
  | 'INVALID_RESULT'
  | 'INVALID_DEFINITION'
  | 'UNSUPPORTED_ERA'
  /** The peer did not declare the capability the request needs (the message names it). */
  | 'MISSING_CAPABILITY'
  | 'SPAWN_FAILED'
  | 'INVALID_ARGUMENT'
  /** The peer sent more than a documented limit allows (the message names the limit). */
  | 'LIMIT_EXCEEDED'
  /** Used before a lazily loaded part was ready (the message says what to await). */
  | 'NOT_READY'
  /** An optional package the feature needs is not installed (the message names it and the npm command). */
  | 'MISSING_DEPENDENCY';

/** A local error: never sent on the wire. Match on `code`, keep `cause`. */
export class LocalError extends Error {
  readonly code: LocalErrorCode;

  constructor(code: LocalErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LocalError';
    this.code = code;
  }
}
