// A scripted hostile MCP server over stdio (modern era), for the hostile test suite.
// Every scenario keeps a well-behaved `echo` tool so the tests can show the connection still
// works after the attack. Usage: node evil-server.mjs
import process from 'node:process';
import { createInterface } from 'node:readline';

const EVIL = `${'a'.repeat(34)}!`;
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const writeText = (text) => process.stdout.write(`${text}\n`);
const result = (id, value) => write({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...value } });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
let listCalls = 0;

const tools = [
  { name: 'echo', inputSchema: { type: 'object' } },
  {
    name: 'redos',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
  },
  {
    name: 'huge-schema',
    inputSchema: { type: 'object' },
    outputSchema: {
      type: 'object',
      properties: { s: { enum: Array.from({ length: 400_000 }, (_, i) => `value-${i}`) } },
    },
  },
];

const calls = {
  echo: (id, args) => result(id, text(String(args?.text ?? ''))),
  redos: (id) => result(id, { ...text('evil'), structuredContent: { s: EVIL } }),
  'huge-schema': (id) => result(id, { ...text('x'), structuredContent: { s: 'value-1' } }),
  deep: (id) =>
    writeText(
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[],"structuredContent":{"d":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
    ),
  never: () => undefined,
  'progress-storm': (id, _args, token) => {
    for (let i = 0; i < 50_000; i++)
      write({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1 },
      });
    result(id, text('stormed'));
  },
  'progress-climb': (id, _args, token) => {
    for (let i = 1; i <= 50_000; i++)
      write({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: i },
      });
    result(id, text('climbed'));
  },
  'list-changed-storm': (id) => {
    for (let i = 0; i < 20_000; i++) write({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    result(id, text('changed'));
  },
  'log-storm': (id) => {
    for (let i = 0; i < 20_000; i++)
      write({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: `line ${i}` },
      });
    result(id, text('logged'));
  },
  'input-flood': (id) => {
    const inputRequests = {};
    for (let i = 0; i < 10_000; i++) inputRequests[`r${i}`] = { method: 'roots/list', params: {} };
    write({ jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests, requestState: 'x' } });
  },
  'list-calls': (id) => result(id, text(String(listCalls))),
};

function answer(message) {
  const { id, method, params } = message;
  if (process.env.EVIL_LEGACY && method === 'initialize') {
    return write({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'evil', version: '6.6.6' },
      },
    });
  }
  if (method === 'server/discover' && !process.env.EVIL_LEGACY) {
    return result(id, {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'evil', version: '6.6.6' } },
    });
  }
  if (method === 'tools/list') {
    listCalls++;
    const many = process.env.EVIL_MANY_TOOLS ? Number(process.env.EVIL_MANY_TOOLS) : 0;
    const extra = Array.from({ length: many }, (_, i) => ({
      name: `t${i}`,
      inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(x+x+)+y$' } } },
    }));
    return result(id, { tools: [...tools, ...extra], ttlMs: 0, cacheScope: 'public' });
  }
  if (method === 'tools/call') {
    const call = calls[params?.name];
    if (call) return call(id, params?.arguments, params?._meta?.progressToken);
  }
  if (id !== undefined)
    write({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  answer(message);
});
