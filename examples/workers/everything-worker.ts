/**
 * The everything server as a Cloudflare Worker, without nodejs_compat: the modern era served
 * statelessly by any isolate, task handlers kept alive with `ctx.waitUntil`, and each legacy
 * session in a Durable Object of its own (class `McpSession`, bound as `MCP_SESSIONS` in
 * wrangler.jsonc beside this file), each task in one too (`McpTask`, `MCP_TASKS`). The conformance script runs the official server suite
 * against it under `wrangler dev`.
 *
 * Run: npm run build && npx wrangler dev --config examples/workers/wrangler.jsonc
 * In your project, import from 'mcpkit/cloudflare' instead.
 */
import {
  createDurableTaskStore,
  createWorker,
  sessionObject,
  taskObject,
  type DurableObjectNamespace,
  type WorkerEnv,
} from '../../src/integrations/cloudflare/index.js';
import type { McpServer } from '../../src/server/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

let server: McpServer | undefined;
/** One server definition per isolate, for the Worker and the session objects alike; tasks in `McpTask` objects. */
const everything = (env: WorkerEnv): McpServer =>
  (server ??= createEverythingServer({
    tasks: { store: createDurableTaskStore(env.MCP_TASKS as DurableObjectNamespace) },
  }));

/** Hosts from the `MCP_ALLOWED_HOSTS` var (comma-separated), else any host (a public Worker). */
const options = (env: WorkerEnv) => {
  const hosts = typeof env.MCP_ALLOWED_HOSTS === 'string' ? env.MCP_ALLOWED_HOSTS.split(',') : undefined;
  return hosts ? { allowedHosts: hosts, allowedOrigins: hosts } : {};
};

export default createWorker(everything, (env) => ({ ...options(env), sessions: 'MCP_SESSIONS' }));
export const McpSession = sessionObject(everything, options);
export const McpTask = taskObject();
