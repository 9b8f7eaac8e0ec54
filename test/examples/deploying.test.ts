/**
 * The README's "Deploying" examples for platforms that do not run here, called as the platform
 * calls them: the Next.js route handler with web Requests, the Lambda handler with Function URL
 * events (payload 2.0). Each serves a modern tools/call and refuses a legacy initialize.
 */
import { describe, expect, it } from 'vitest';
import { POST } from '../../examples/nextjs-route.js';
import { handler, type FunctionUrlEvent } from '../../examples/lambda-handler.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: META },
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};

function lambdaEvent(body: unknown, headers: Record<string, string>): FunctionUrlEvent {
  return {
    rawPath: '/mcp',
    headers: { host: 'abc.lambda-url.eu-west-1.on.aws', ...headers },
    body: Buffer.from(JSON.stringify(body)).toString('base64'),
    isBase64Encoded: true,
    requestContext: {
      http: { method: 'POST', sourceIp: '198.51.100.7' },
      domainName: 'abc.lambda-url.eu-west-1.on.aws',
    },
  };
}

describe('the Next.js route handler example', () => {
  const request = (body: unknown, headers: Record<string, string>) =>
    new Request('https://example.vercel.app/mcp', { method: 'POST', headers, body: JSON.stringify(body) });

  it('answers a modern tools/call', async () => {
    const response = await POST(request(CALL, HEADERS));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: '5' }] },
    });
  });

  it('refuses a legacy initialize (modern-only, stateless)', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const response = await POST(request(INITIALIZE, headers));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(((await response.json()) as { error?: unknown }).error).toBeDefined();
  });
});

describe('the AWS Lambda handler example', () => {
  it('answers a modern tools/call from a Function URL event', async () => {
    const result = await handler(lambdaEvent(CALL, HEADERS));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: '5' }] },
    });
  });

  it('refuses a legacy initialize', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const result = await handler(lambdaEvent(INITIALIZE, headers));
    expect(result.statusCode).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(result.body)).toHaveProperty('error');
  });
});
