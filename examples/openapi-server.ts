/**
 * A REST API as MCP tools: a tiny to-do API (node:http, with its OpenAPI 3.1 document) on
 * loopback, turned into an MCP server by `fromOpenApi`, then called by an mcpkit client over
 * the in-memory pair. Prints what the model would see and exits.
 *
 * Run: npm run build && node dist/examples/openapi-server.js
 * The same document on stdio, from the CLI:
 *      mcpkit serve --openapi todo.json --base-url http://127.0.0.1:PORT --token-env TODO_TOKEN
 * In your project, import from 'mcpkit/openapi', 'mcpkit/server', 'mcpkit/client' and 'mcpkit/testing'.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../src/client/index.js';
import { fromOpenApi } from '../src/openapi/index.js';
import { connect } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';

const TOKEN = process.env.TODO_TOKEN ?? 'example-token';

const document = {
  openapi: '3.1.0',
  info: { title: 'todo', version: '1.0.0' },
  paths: {
    '/todos': {
      get: {
        operationId: 'listTodos',
        summary: 'List to-dos',
        parameters: [{ name: 'done', in: 'query', schema: { type: 'boolean' } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Todo' } } },
            },
          },
        },
      },
      post: {
        operationId: 'addTodo',
        summary: 'Add a to-do',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewTodo' } } },
        },
        responses: {
          '201': {
            description: 'added',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      NewTodo: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string', minLength: 1 } },
      },
      Todo: {
        type: 'object',
        required: ['id', 'title', 'done'],
        properties: { id: { type: 'integer' }, title: { type: 'string' }, done: { type: 'boolean' } },
      },
    },
  },
};

/** The to-do API itself: bearer token required, JSON in and out. */
const todos: Array<{ id: number; title: string; done: boolean }> = [
  { id: 1, title: 'water the plants', done: true },
];
const api = createHttpServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { error: 'unauthorized' });
    const url = new URL(req.url ?? '/', 'http://todo');
    if (req.method === 'GET' && url.pathname === '/todos') {
      const done = url.searchParams.get('done');
      return reply(
        200,
        todos.filter((t) => done === null || String(t.done) === done),
      );
    }
    if (req.method === 'POST' && url.pathname === '/todos') {
      const todo = {
        id: todos.length + 1,
        title: (JSON.parse(body) as { title: string }).title,
        done: false,
      };
      todos.push(todo);
      return reply(201, todo);
    }
    reply(404, { error: 'not found' });
  });
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const { server, tools, issues } = await fromOpenApi(document, {
  baseUrl,
  auth: { type: 'bearer', token: TOKEN },
});
console.log(`tools: ${tools.join(', ')}; issues: ${issues.length}`);

const [clientSide, serverSide] = createLinkedPair();
await connect(server, serverSide);
const client = createClient({ name: 'example', version: '1.0.0' });
await client.connect(clientSide);

const added = await client.callTool('addTodo', { body: { title: 'write the docs' } });
console.log('addTodo →', JSON.stringify(added.structuredContent));
const open = await client.callTool('listTodos', { done: false });
console.log('listTodos(done: false) →', JSON.stringify(open.structuredContent));
const refused = await client.callTool('addTodo', { body: { title: '' } });
console.log('addTodo with an empty title → isError:', refused.isError === true);

await client.close();
api.close();
