/**
 * An AWS Lambda handler behind a Lambda Function URL (payload format 2.0): the event becomes a
 * web `Request`, mcpkit/http answers it, and the `Response` becomes the function's result. The
 * server is modern-only (stateless): nothing outlives one invocation. For long `listen` streams
 * use response streaming (`awslambda.streamifyResponse`) and the serverless profile.
 * test/examples/deploying.test.ts invokes `handler` with Function URL events.
 *
 * In your project, import from 'mcpkit/server' and 'mcpkit/http' instead.
 */
import { z } from 'zod';
import { createServer } from '../src/server/index.js';
import { createHttpHandler } from '../src/server/http/index.js';

/** The fields of a Function URL event (payload 2.0) this handler reads. */
export interface FunctionUrlEvent {
  rawPath: string;
  rawQueryString?: string;
  headers: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { http: { method: string; sourceIp?: string }; domainName: string };
}

/** What the function returns: Lambda turns it into the HTTP response. */
export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const server = createServer({ name: 'lambda-example', version: '1.0.0', eras: ['modern'] });
server.tool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => String(a + b),
);
const mcp = createHttpHandler(server, { bindAddress: '0.0.0.0' });

/** The Lambda entry point (`handler` in the function's configuration). */
export async function handler(event: FunctionUrlEvent): Promise<FunctionUrlResult> {
  const { method, sourceIp } = event.requestContext.http;
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers))
    if (value !== undefined) headers.set(name, value);
  const body = event.body === undefined ? null : event.isBase64Encoded ? atob(event.body) : event.body;
  const request = new Request(`https://${event.requestContext.domainName}${event.rawPath}${query}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? null : body,
  });
  const response = await mcp(request, { remoteAddress: sourceIp });
  const result: FunctionUrlResult = { statusCode: response.status, headers: {}, body: await response.text() };
  response.headers.forEach((value, name) => (result.headers[name] = value));
  return result;
}
