/**
 * Limits on both sides, set explicitly: a public server that bounds what clients may make
 * it hold (schema patterns run in linear time whatever the bounds), and a host client that
 * bounds what a server may send it. Every value here is an option with a default; see the
 * README's "Security" section for the full list.
 *
 * Run: npm run build && node dist/examples/limits.js
 * In your project, import from 'mcpkit/server', 'mcpkit/node' and 'mcpkit/client' instead.
 */
import { createClient, streamableHttp } from '../src/client/index.js';
import { serve } from '../src/integrations/node/index.js';
import { createServer } from '../src/server/index.js';

async function main(): Promise<void> {
  const server = createServer({
    name: 'bounded',
    version: '1.0.0',
    limits: {
      maxListenStreams: 1000,
      maxListenStreamsPerPrincipal: 20,
      maxTasksPerPrincipal: 20,
      maxConcurrentRequests: 64,
      maxJsonDepth: 64,
      subscriptionHookTimeoutMs: 10_000,
      schema: { maxBytes: 64 * 1024, maxPatternLength: 256, maxPatternProgram: 5000, maxUrlLength: 1024 },
    },
  });
  server.tool(
    'lookup',
    {
      description: 'Looks up a code (the pattern is checked by RE2, in linear time)',
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^([a-z]+)+$' } } },
    },
    ({ code }) => `found ${String(code)}`,
  );
  const served = await serve(server, {
    port: 0,
    headersTimeoutMs: 5000,
    requestTimeoutMs: 15_000,
    maxConnections: 256,
    http: {
      maxBodyBytes: 1024 * 1024,
      maxSessions: 100,
      maxStreamBufferBytes: 1024 * 1024,
      // Per client (the verified identity, else the peer's address; IPv6 by /64): over these → 429 + Retry-After.
      principals: {
        requestsPerSecond: 50,
        burst: 100,
        maxConcurrentRequests: 20,
        maxSessions: 5,
        maxTracked: 50_000,
        maxKeyLength: 256,
      },
    },
  });

  const client = createClient({
    name: 'careful-host',
    version: '1.0.0',
    timeoutMs: 10_000,
    limits: {
      maxJsonDepth: 64,
      maxInputRequests: 4,
      maxLogMessagesPerSecond: 20,
      schema: { maxBytes: 32 * 1024, maxPatternLength: 256 },
    },
  });
  await client.connect(
    streamableHttp(served.url, { maxMessageBytes: 1024 * 1024, retry: { maxRetries: 3, maxDelayMs: 5000 } }),
  );
  // The first call also loads ajv and compiles the tool's schema (lazily, on first use), so the
  // time printed below is mostly that one-off cost; the RE2 match itself takes microseconds.
  const hostile = `${'a'.repeat(40)}!`;
  const started = performance.now();
  const refused = await client.callTool('lookup', { code: hostile });
  console.log(
    `hostile argument answered in ${(performance.now() - started).toFixed(1)} ms:`,
    refused.isError,
  );
  console.log((await client.callTool('lookup', { code: 'abc' })).content);
  await client.close();
  await served.close();
}

void main();
