import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonRpcMessage, Params } from '../../core/jsonrpc.js';
import type { Middleware } from '../../core/middleware.js';
import { createLinkedPair } from '../../testing/index.js';
import { stdioServerTransport } from '../../integrations/stdio/index.js';
import { connect, createServer, type McpServer, type ServerOptions } from '../index.js';
import { createHttpHandler, type HttpAuthGuard } from '../http/index.js';
import { modernBody, modernHeaders, post } from '../../../test/support/http-harness.js';
import { deferred } from '../../../test/support/wait.js';

/** What each caller's credentials grant. */
const SCOPES: Record<string, string[]> = { alice: ['mcp:read'], bob: ['mcp:read', 'mcp:write'] };
const CALLER = 'example.com/caller';

/** Who is calling on stdio and in memory: named in `_meta` (what a real auth middleware would verify). */
const identify: Middleware = (next) => (message, ctx) => {
  const subject = (message.params?._meta as Params | undefined)?.[CALLER];
  if (ctx.auth || typeof subject !== 'string') return next(message, ctx);
  return next(message, { ...ctx, auth: { subject, scopes: SCOPES[subject] ?? [] } });
};

/** An HTTP auth guard whose bearer token is the subject. */
const guard: HttpAuthGuard = {
  paths: [],
  serve: () => undefined,
  authenticate: (request) => {
    const subject = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
    return Promise.resolve({ auth: { subject, scopes: SCOPES[subject] ?? [] } });
  },
  insufficientScope: (required) => ({
    status: 403,
    headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${required.join(' ')}"` },
    body: null,
  }),
};

interface Answer {
  status?: number;
  headers?: Headers;
  message: JsonRpcMessage | undefined;
}

interface Wire {
  call(caller: string, method: string, params: Params): Promise<Answer>;
  close(): void;
}

let nextId = 1;

function request(caller: string, method: string, params: Params): JsonRpcMessage {
  return modernBody(method, { ...params, _meta: { [CALLER]: caller } }, nextId++);
}

/** Correlates responses by id for a stream transport. */
function correlator(): {
  wait(id: number | string): Promise<Answer>;
  frame(text: string): void;
} {
  const waiting = new Map<number | string, (answer: Answer) => void>();
  return {
    wait: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    frame: (text) => {
      const message = JSON.parse(text) as JsonRpcMessage;
      if ('id' in message && message.id !== null) waiting.get(message.id)?.({ message });
    },
  };
}

async function overLinkedPair(server: McpServer): Promise<Wire> {
  const [client, end] = createLinkedPair();
  const replies = correlator();
  await client.start({ frame: replies.frame, closed: () => undefined });
  await connect(server, end);
  return {
    call: (caller, method, params) => {
      const message = request(caller, method, params);
      void client.send(message);
      return replies.wait((message as { id: number }).id);
    },
    close: () => void client.close(),
  };
}

async function overStdio(server: McpServer): Promise<Wire> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies = correlator();
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    const lines = (buffered + chunk.toString('utf8')).split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim() !== '') replies.frame(line);
  });
  await connect(server, stdioServerTransport({ stdin, stdout, progressGapMs: 0 }));
  return {
    call: (caller, method, params) => {
      const message = request(caller, method, params) as { id: number };
      stdin.write(`${JSON.stringify(message)}\n`);
      return replies.wait(message.id);
    },
    close: () => stdin.end(),
  };
}

function overHttp(withGuard: boolean): (server: McpServer) => Promise<Wire> {
  return (server) => {
    const handler = createHttpHandler(server, withGuard ? { auth: guard } : {});
    return Promise.resolve({
      call: async (caller, method, params) => {
        const body = request(caller, method, params);
        const response = await handler(
          post(body, { ...modernHeaders(body), authorization: `Bearer ${caller}` }),
        );
        const text = await response.text();
        return {
          status: response.status,
          headers: response.headers,
          message: text === '' ? undefined : (JSON.parse(text) as JsonRpcMessage),
        };
      },
      close: () => handler.close(),
    });
  };
}

const TRANSPORTS = [
  ['stdio', overStdio],
  ['an in-memory linked pair', overLinkedPair],
  ['Streamable HTTP with an auth middleware', overHttp(false)],
  ['Streamable HTTP with an auth guard', overHttp(true)],
] as const;

const gate = { held: deferred() };

function policyServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = createServer({ name: 'policy', version: '1', ...options });
  server.use(identify);
  server.tool('read', {}, () => 'read');
  server.tool('write', { scopes: ['mcp:write'] }, () => 'written');
  server.tool('hold', {}, async () => {
    await gate.held.promise;
    return 'held';
  });
  return server;
}

let open: Wire[] = [];
afterEach(() => {
  for (const wire of open) wire.close();
  open = [];
  gate.held.resolve();
  gate.held = deferred();
});

const errorOf = (answer: Answer) => (answer.message as { error?: unknown } | undefined)?.error;
const resultOf = (answer: Answer) => (answer.message as { result?: unknown } | undefined)?.result;

async function opened(
  over: (server: McpServer) => Promise<Wire>,
  options?: Partial<ServerOptions>,
): Promise<Wire> {
  const w = await over(policyServer(options));
  open.push(w);
  return w;
}

describe.each(TRANSPORTS)('policy over %s', (name, over) => {
  const viaGuard = name.endsWith('auth guard');
  const wire = (options?: Partial<ServerOptions>) => opened(over, options);

  it('refuses a call whose tool needs a scope the caller lacks, and serves one who holds it', async () => {
    const w = await wire();
    const refused = await w.call('alice', 'tools/call', { name: 'write', arguments: {} });
    if (viaGuard) {
      expect(refused.status).toBe(403);
      expect(refused.headers?.get('www-authenticate')).toContain('scope="mcp:write"');
    } else {
      if (refused.status !== undefined) expect(refused.status).toBe(403);
      expect(errorOf(refused)).toEqual({
        code: -32600,
        message: 'Insufficient scope: this needs scope mcp:write',
        data: { requiredScopes: ['mcp:write'] },
      });
    }
    expect(resultOf(await w.call('bob', 'tools/call', { name: 'write', arguments: {} }))).toMatchObject({
      content: [{ type: 'text', text: 'written' }],
    });
    expect(resultOf(await w.call('alice', 'tools/call', { name: 'read', arguments: {} }))).toBeDefined();
  });

  it('refuses a principal over its request rate with -32600 Too Many Requests; another principal is still served', async () => {
    const w = await wire({ limits: { perPrincipal: { requestsPerSecond: 0.001, burst: 2 } } });
    const read = { name: 'read', arguments: {} };
    expect(resultOf(await w.call('alice', 'tools/call', read))).toBeDefined();
    expect(resultOf(await w.call('alice', 'tools/call', read))).toBeDefined();
    const refused = await w.call('alice', 'tools/call', read);
    expect(errorOf(refused)).toEqual({
      code: -32600,
      message: expect.stringMatching(
        /^Too Many Requests: more than 0\.001 requests per second \(requestsPerSecond\); retry after \d+ s$/,
      ),
      data: { retryAfterS: expect.any(Number) },
    });
    if (refused.status !== undefined) {
      expect(refused.status).toBe(429);
      expect(refused.headers?.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    expect(resultOf(await w.call('bob', 'tools/call', read))).toBeDefined();
  });

  it('refuses a principal over its requests in progress while other principals call concurrently', async () => {
    const w = await wire({ limits: { perPrincipal: { maxConcurrentRequests: 1, maxQueuedRequests: 0 } } });
    const holding = w.call('alice', 'tools/call', { name: 'hold', arguments: {} });
    // Several clients of other identities at once, while alice's first call holds her one slot.
    const others = Promise.all(
      ['bob', 'carol', 'dave'].map((who) => w.call(who, 'tools/call', { name: 'read', arguments: {} })),
    );
    const refused = await w.call('alice', 'tools/call', { name: 'read', arguments: {} });
    expect(errorOf(refused)).toEqual({
      code: -32600,
      message: 'Too Many Requests: more than 1 requests in progress (maxConcurrentRequests); retry after 1 s',
      data: { retryAfterS: 1 },
    });
    for (const answer of await others) expect(resultOf(answer)).toBeDefined();
    gate.held.resolve();
    expect(resultOf(await holding)).toBeDefined();
    expect(resultOf(await w.call('alice', 'tools/call', { name: 'read', arguments: {} }))).toBeDefined();
  });
});

describe('built-in policy options', () => {
  it.each([Number.NaN, 0, -1])(
    'refuses limits.perPrincipal.requestsPerSecond = %s at createServer',
    (value) => {
      expect(() =>
        createServer({ name: 'p', version: '1', limits: { perPrincipal: { requestsPerSecond: value } } }),
      ).toThrow(/limits\.perPrincipal\.requestsPerSecond/);
    },
  );

  it('leaves anonymous callers to the global bounds: no ctx.auth, no per-principal count and no scope check', async () => {
    const server = createServer({
      name: 'p',
      version: '1',
      limits: { perPrincipal: { requestsPerSecond: 0.001, burst: 1 } },
    });
    server.tool('write', { scopes: ['mcp:write'] }, () => 'written');
    const w = await overLinkedPair(server);
    open.push(w);
    for (let i = 0; i < 3; i++)
      expect(resultOf(await w.call('nobody', 'tools/call', { name: 'write', arguments: {} }))).toBeDefined();
  });
});

describe('policy in a legacy session', () => {
  const initialize = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  };

  it('a legacy stdio-style session gets the same scope refusal', async () => {
    const [client, end] = createLinkedPair();
    const replies = correlator();
    await client.start({ frame: replies.frame, closed: () => undefined });
    await connect(policyServer(), end);
    open.push({ call: () => Promise.reject(new Error('unused')), close: () => void client.close() });
    const send = (id: number, method: string, params: Params) => {
      void client.send({ jsonrpc: '2.0', id, method, params });
      return replies.wait(id);
    };
    await send(1, 'initialize', initialize);
    void client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const refused = await send(2, 'tools/call', {
      name: 'write',
      arguments: {},
      _meta: { [CALLER]: 'alice' },
    });
    expect(errorOf(refused)).toMatchObject({ code: -32600, data: { requiredScopes: ['mcp:write'] } });
  });

  it('a legacy Streamable HTTP session answers the scope refusal with the guard challenge', async () => {
    const handler = createHttpHandler(policyServer(), { auth: guard });
    open.push({ call: () => Promise.reject(new Error('unused')), close: () => handler.close() });
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: 'Bearer alice',
    };
    const opened = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize }, headers),
    );
    const session = {
      ...headers,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    await opened.body?.cancel();
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write', arguments: {} } };
    const refused = await handler(post(call, session));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp:write"');
  });
});
