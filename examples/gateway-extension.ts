/**
 * A gateway relaying an extension it does not know: a backend defines `com.example/echo`
 * (method `echo/ping`, which also sends `notifications/echo/pong` on the request's stream);
 * the gateway declares the extension because that one backend does, and relays the
 * method, with the caller's negotiation, and its notification to that caller only. A
 * client that did not negotiate the extension gets -32601. Everything runs in one process
 * over Streamable HTTP on loopback ports.
 *
 * Run: npm run build && node dist/examples/gateway-extension.js
 * In your project, import from 'mcpkit', 'mcpkit/server', 'mcpkit/client', 'mcpkit/host'
 * and 'mcpkit/node'.
 */
import type { WireError } from '../src/core/index.js';
import { createServer, defineExtension, negotiated } from '../src/server/index.js';
import { createClient, defineExtension as clientExtension, streamableHttp } from '../src/client/index.js';
import { createGateway, createHost } from '../src/host/index.js';
import { serve } from '../src/integrations/node/index.js';

const ECHO = 'com.example/echo';

const echo = defineExtension({
  id: ECHO,
  settings: { loud: true },
  methods: {
    'echo/ping': (params: { text?: unknown }, ctx) => {
      ctx.notify('notifications/echo/pong', { text: params.text });
      return { text: params.text, negotiated: negotiated(ctx, ECHO) ?? null };
    },
  },
});

async function main(): Promise<void> {
  const backend = await serve(createServer({ name: 'echo', version: '1.0.0', extensions: [echo] }), {
    port: 0,
  });
  const host = createHost({ servers: { echo: { url: backend.url } } });
  await host.start();
  const gateway = await serve(createGateway(host).server, { port: 0 });

  const client = createClient({
    name: 'front',
    version: '1.0.0',
    extensions: [clientExtension({ id: ECHO, settings: { v: 1 } })],
    onNotification: (n) => console.log('notification', n.method, n.params),
  });
  await client.connect(streamableHttp(gateway.url));
  await client.discover();
  console.log('gateway declares', client.serverExtension(ECHO));
  console.log('result', await client.request('echo/ping', { text: 'hello' }));

  const plain = createClient({ name: 'plain', version: '1.0.0' });
  await plain.connect(streamableHttp(gateway.url));
  await plain
    .request('echo/ping', { text: 'hello' })
    .catch((e: WireError) => console.log(`not negotiated: ${e.code} ${e.message}`));

  await Promise.all([client.close(), plain.close()]);
  await gateway.close();
  await host.close();
  await backend.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
