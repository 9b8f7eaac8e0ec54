/**
 * One instance of a fleet: run several of these behind any load balancer, all pointing at
 * the same Redis, and clients see one server. Listen streams hear changes made on any
 * instance, tasks can be polled and answered through any instance (and fail or re-run
 * when their instance dies), requestState sealed by one instance opens on another, and a
 * legacy (2025-11-25) session can send each request to a different instance: its state,
 * its GET stream and the answers to the server's own requests go through Redis.
 *
 * Run (three instances and a Redis on 6379):
 *   npm run build
 *   export MCPKIT_STATE_KEY=$(node -e "console.log(require('crypto').randomBytes(32).toString('base64'))")
 *   node dist/examples/fleet-server.js --port 3001 --name a &
 *   node dist/examples/fleet-server.js --port 3002 --name b &
 *   node dist/examples/fleet-server.js --port 3003 --name c &
 * Options: --redis URL (default redis://127.0.0.1:6379), --lease-ms N (default 30000).
 * In your project, import from 'mcpkit/server', 'mcpkit/node' and 'mcpkit/redis'.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { serve } from '../src/integrations/node/index.js';
import { connectRedis, createRedisFleet } from '../src/integrations/redis/index.js';
import { createServer, type McpServer } from '../src/server/index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3001' },
    name: { type: 'string', default: 'a' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'lease-ms': { type: 'string', default: '30000' },
    'poll-ms': { type: 'string', default: '1000' },
  },
});
const name = values.name;
const secret = process.env.MCPKIT_STATE_KEY;
if (!secret) throw new Error('set MCPKIT_STATE_KEY to the same 32 random bytes (base64) on every instance');

async function main(): Promise<void> {
  const redis = await connectRedis(values.redis);
  const fleet = await createRedisFleet(redis);
  const server = createServer({
    name: 'fleet-example',
    version: '1.0.0',
    eventBus: fleet.eventBus,
    tasks: {
      store: fleet.taskStore,
      leaseMs: Number(values['lease-ms']),
      pollIntervalMs: Number(values['poll-ms']),
      instanceId: name,
    },
    // One key ring for the fleet: requestState sealed here opens on every instance.
    requestState: { keys: [{ id: 'fleet', secret: Uint8Array.from(Buffer.from(secret!, 'base64')) }] },
  });
  registerTools(server);
  // Records each execution (its own random id) under the call's id in Redis, so a chaos run
  // can tell a handler that ran twice from a Redis command the client library resent.
  server.tool('mark', { inputSchema: z.object({ id: z.string().max(100) }) }, async ({ id }) => {
    await redis.sadd(`mark:${id}`, randomUUID());
    return `marked on ${name}`;
  });
  const served = await serve(server, {
    port: Number(values.port),
    // Legacy sessions in Redis (any instance serves any session), SSE replay on Redis Streams.
    http: { eventStore: fleet.eventStore, sessionStore: fleet.sessionStore },
  });
  console.log(`mcpkit fleet instance ${name} at ${served.url}`);
  const stop = async (): Promise<void> => {
    server.stopTasks();
    await served.close();
    await fleet.close();
    redis.disconnect();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

function registerTools(server: McpServer): void {
  let added = 0;
  let stopped = 0;
  server.tool('stopped', { description: 'How many handlers were cancelled on this instance' }, () => {
    return `${stopped} stopped on ${name}`;
  });
  server.tool('add_tool', { description: 'Adds a tool on this instance and announces it' }, () => {
    const tool = `extra_${name}_${++added}`;
    server.tool(tool, { description: 'Added at run time' }, () => `${tool} on ${name}`);
    server.notifyToolsChanged();
    return `added ${tool} on ${name}`;
  });
  server.resource('fleet://note', { mimeType: 'text/plain' }, (uri) => [{ uri, text: `note from ${name}` }]);
  server.tool('touch', { inputSchema: z.object({ uri: z.string() }) }, ({ uri }) => {
    server.notifyResourceUpdated(uri);
    return `touched ${uri} on ${name}`;
  });
  server.tool(
    'approve',
    { description: 'Asks for approval, then answers (a task when allowed)', task: 'optional' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Approve?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return `${answer.action === 'accept' && answer.content?.ok === true ? 'approved' : 'refused'} on ${name}`;
    },
  );
  for (const retrySafe of [false, true]) {
    server.tool(
      retrySafe ? 'slow_retry_safe' : 'slow',
      {
        description: 'Works for `ms` milliseconds',
        inputSchema: z.object({ ms: z.number().min(0).max(600_000) }),
        task: { support: 'optional', retrySafe },
      },
      async ({ ms }, ctx) => {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          ctx.signal.addEventListener('abort', () => {
            stopped++;
            clearTimeout(timer);
            reject(ctx.signal.reason);
          });
        });
        return `worked ${ms} ms on ${name}`;
      },
    );
  }
  server.tool('chatty', { description: 'Logs at debug and at warning, then answers' }, (_args, ctx) => {
    ctx.log('debug', `debug from ${name}`);
    ctx.log('warning', `warning from ${name}`);
    return `logged on ${name}`;
  });
  server.tool('sign', { description: 'Asks a name (multi round-trip), then greets' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return `signed ${String(answer.content?.name)} on ${name}`;
  });
}

main().catch((error: unknown) => {
  console.error(`fleet instance ${name}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
