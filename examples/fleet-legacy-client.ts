/**
 * A legacy (2025-11-25) client with no sticky routing: every POST of its one session goes to
 * the next instance of a fleet (examples/fleet-server.ts) in turn, as a round-robin load
 * balancer would send it. The session lives in Redis, so each instance serves it: the log
 * level set through one applies to a tool on the next, and the answer to the server's
 * elicitation reaches the instance whose tool asked, whichever instance it is POSTed to.
 *
 * Run (after starting three instances as examples/fleet-server.ts says):
 *   node dist/examples/fleet-legacy-client.js http://127.0.0.1:3001/mcp http://127.0.0.1:3002/mcp http://127.0.0.1:3003/mcp
 * In your project, import from 'mcpkit/client'.
 */
import { createClient, streamableHttp } from '../src/client/index.js';

async function main(urls: string[]): Promise<void> {
  if (urls.length === 0) throw new Error('give the URLs of the fleet instances');
  let next = 0;
  const roundRobin: typeof fetch = (_input, init) => {
    const url = urls[next++ % urls.length]!;
    console.log(`${init?.method ?? 'GET'} → ${url}`);
    return fetch(url, init);
  };
  const client = createClient({
    name: 'fleet-legacy-client',
    version: '1.0.0',
    era: 'legacy',
    handlers: { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
    onNotification: (n) => console.log(`notification ${n.method} ${JSON.stringify(n.params ?? {})}`),
  });
  await client.connect(streamableHttp(urls[0]!, { fetch: roundRobin }));
  console.log(`session open (${client.protocolVersion})`);
  await client.setLoggingLevel('warning');
  console.log(textOf(await client.callTool('chatty', {})));
  console.log(textOf(await client.callTool('approve', {})));
  await client.close();
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
