/**
 * `mcpkit/openapi`: an MCP server made from an OpenAPI 3.0 or 3.1 document — each operation
 * a tool (or, by route map, a resource), each call an HTTP request to the API.
 * Needs `@apidevtools/swagger-parser` (a dependency of mcpkit), loaded on first use.
 */
export { fromOpenApi, type OpenApiOptions, type OpenApiServer } from './from-openapi.js';
export type { OperationIssue } from './operations.js';
export type { OpenApiAuth } from './request.js';
export type { RouteMap, RouteTarget } from './routes.js';
