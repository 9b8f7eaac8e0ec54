/**
 * A small 2026-07-28 Streamable HTTP server written with plain node:http (neither mcpkit nor
 * the official SDK, which speaks only 2025-11-25), correct but for one defect: it checks that
 * the `Mcp-Param-Region` header of a `route` call is present, never that it matches the
 * body. `mcpkit check --era modern --call route='{"region":"us-west1","query":"q"}'` reports
 * `http.param-mirroring` and nothing else. Prints its URL; binds 127.0.0.1 on a free port.
 */
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';

const REVISION = '2026-07-28';
const SERVER_INFO = { name: 'broken-param-fixture', version: '1.0.0' };
const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
};
const ROUTE = {
  name: 'route',
  description: 'Says where a query would run.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', description: 'Region to run in', 'x-mcp-header': 'Region' },
      query: { type: 'string', description: 'The query' },
    },
    required: ['region', 'query'],
  },
};
/** The JSON-RPC error of a failed check, with the HTTP status it goes with. */
class Refusal {
  constructor(status, code, message, data) {
    Object.assign(this, { status, error: data === undefined ? { code, message } : { code, message, data } });
  }
}

const mismatch = (message) => new Refusal(400, -32020, `Header mismatch: ${message}`);

/** A header value as the body carries it: the Base64 sentinel decoded. */
function decoded(raw) {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(raw);
  return match ? Buffer.from(match[1], 'base64').toString('utf8') : raw;
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The header checks of "Server Validation" (the Mcp-Param-Region one only half done). */
function checkHeaders(headers, message) {
  const params = isObject(message.params) ? message.params : {};
  const version = isObject(params._meta) ? params._meta[META.version] : undefined;
  if (headers['mcp-protocol-version'] === undefined) return mismatch('MCP-Protocol-Version is missing');
  if (version !== REVISION)
    return new Refusal(400, -32022, 'Unsupported protocol version', {
      requested: String(version),
      supported: [REVISION],
    });
  if (headers['mcp-protocol-version'] !== version) return mismatch('MCP-Protocol-Version');
  if (headers['mcp-method'] === undefined) return mismatch('Mcp-Method is missing');
  if (headers['mcp-method'] !== message.method) return mismatch('Mcp-Method');
  if (['tools/call', 'prompts/get', 'resources/read'].includes(message.method)) {
    const name = message.method === 'resources/read' ? params.uri : params.name;
    if (headers['mcp-name'] === undefined) return mismatch('Mcp-Name is missing');
    if (decoded(headers['mcp-name']) !== name) return mismatch('Mcp-Name');
  }
  const region = isObject(params.arguments) ? params.arguments.region : undefined;
  if (message.method === 'tools/call' && params.name === 'route' && typeof region === 'string') {
    // The defect: the header must be there, but what it says is never compared with the body.
    if (headers['mcp-param-region'] === undefined) return mismatch('Mcp-Param-Region is missing');
  }
  return undefined;
}

const complete = (result) => ({ resultType: 'complete', ...result });

function call(params) {
  if (!isObject(params.arguments) || typeof params.name !== 'string')
    throw new Refusal(200, -32602, 'Invalid params: name and arguments are required');
  if (params.name !== 'route') throw new Refusal(200, -32602, `Unknown tool: ${params.name}`);
  const { region, query } = params.arguments;
  if (typeof region !== 'string' || typeof query !== 'string')
    return complete({ content: [{ type: 'text', text: 'route needs region and query' }], isError: true });
  return complete({ content: [{ type: 'text', text: `${query} runs in ${region}` }] });
}

function answer(message) {
  const params = isObject(message.params) ? message.params : {};
  switch (message.method) {
    case 'server/discover':
      return complete({
        supportedVersions: [REVISION],
        capabilities: { tools: {} },
        cacheScope: 'public',
        ttlMs: 0,
        _meta: { [META.serverInfo]: SERVER_INFO },
      });
    case 'tools/list':
      return complete({ tools: [ROUTE], cacheScope: 'public', ttlMs: 0 });
    case 'tools/call':
      return call(params);
    default:
      throw new Refusal(404, -32601, `Method not found: ${String(message.method)}`);
  }
}

function send(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function handle(message, request) {
  if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string')
    return [400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }];
  const id = message.id ?? null;
  try {
    const refusal = checkHeaders(request.headers, message);
    if (refusal) throw refusal;
    return [200, { jsonrpc: '2.0', id, result: answer(message) }];
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return [error.status, { jsonrpc: '2.0', id, error: error.error }];
  }
}

const server = createServer((request, response) => {
  const { port } = server.address();
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const origin = request.headers.origin;
  if (
    !hosts.includes(request.headers.host ?? '') ||
    (origin !== undefined && !hosts.map((h) => `http://${h}`).includes(origin))
  )
    return send(response, 403, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Forbidden' } });
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return undefined;
  }
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= 1024 * 1024) chunks.push(chunk);
  });
  request.on('end', () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(response, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error' },
      });
    }
    const [status, body] = handle(message, request);
    return send(response, status, body);
  });
  return undefined;
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
