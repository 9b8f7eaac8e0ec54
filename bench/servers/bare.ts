/**
 * The ceiling: a hand-written JSON-RPC echo with no SDK. Over stdio it reads
 * newline-delimited JSON; over HTTP it is a node:http handler answering JSON, with
 * legacy sessions kept as a bare set of ids. It answers `initialize`, `tools/list` and
 * `tools/call` of `echo` (checking that `text` is a string), and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createNodeServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ECHO, listenAndAnnounce, wireFromArgv } from './common.js';

interface Message {
  id?: string | number;
  method?: string;
  params?: { name?: unknown; arguments?: { text?: unknown }; protocolVersion?: unknown };
}

const TOOL = {
  name: ECHO,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** The result (or error) of one request. */
function answer(m: Message): { result: unknown } | { error: { code: number; message: string } } {
  switch (m.method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: m.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'bench-bare', version: '0.0.0' },
        },
      };
    case 'tools/list':
      return { result: { tools: [TOOL] } };
    case 'tools/call': {
      const text = m.params?.arguments?.text;
      if (m.params?.name !== ECHO || typeof text !== 'string')
        return { error: { code: -32602, message: 'Invalid params' } };
      return { result: { content: [{ type: 'text', text }] } };
    }
    default:
      return { error: { code: -32601, message: 'Method not found' } };
  }
}

function reply(m: Message): string {
  return JSON.stringify({ jsonrpc: '2.0', id: m.id, ...answer(m) });
}

function serveStdio(): void {
  let pending: Buffer[] = [];
  process.stdin.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(pending).toString('utf8');
      pending = [];
      start = nl + 1;
      const m = JSON.parse(line) as Message;
      if (m.id !== undefined) process.stdout.write(reply(m) + '\n');
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  process.stdin.on('end', () => process.exit(0));
}

function httpHandler(): (req: IncomingMessage, res: ServerResponse) => void {
  const sessions = new Set<string>();
  return (req, res) => {
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string' && !sessions.has(sid)) return void res.writeHead(404).end();
    if (req.method === 'DELETE') {
      if (typeof sid === 'string') sessions.delete(sid);
      return void res.writeHead(200).end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
      if (m.id === undefined) return void res.writeHead(202).end();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (m.method === 'initialize') {
        const id = randomUUID();
        sessions.add(id);
        headers['mcp-session-id'] = id;
      }
      res.writeHead(200, headers).end(reply(m));
    });
  };
}

if (wireFromArgv() === 'stdio') serveStdio();
else listenAndAnnounce(createNodeServer(httpHandler()));
