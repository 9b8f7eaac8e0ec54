/**
 * The HTTP endpoint's face for mcpkit's own layers (the node:http adapter, the auth guard),
 * not exported from the package: the endpoint over its internal request/response shapes,
 * which the node adapter fills without building web `Request`/`Response` objects.
 * Applications use `createHttpHandler` from `mcpkit/http` (index.ts).
 */
export { createHttpEndpoint, type HttpEndpoint } from './handler.js';
export type { HttpRequest, HttpResponse } from './exchange.js';
export { DEFAULT_MAX_BODY_BYTES, type BodyResult, readBody } from './body.js';
export { connectionShares } from './admission.js';
