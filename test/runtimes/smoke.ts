/**
 * The client smoke test each runtime runs (scripts/conformance.mjs, leg `client-runtimes`):
 * mcpkit's client reaches an everything server over Streamable HTTP in `era`, lists its
 * tools, calls `echo`, and answers an elicitation (a server-initiated request on legacy,
 * `input_required` on modern). Runtime-neutral: the Node/Bun/Deno command line
 * (client-smoke.ts) and the Worker (client-smoke-worker.ts) both run it.
 */
import { createClient, streamableHttp } from '../../src/client/index.js';

/** Runs the smoke test; resolves with a one-line summary. @throws Error naming what failed. */
export async function smoke(url: string, era: string): Promise<string> {
  if (era !== 'modern' && era !== 'legacy') throw new Error(`era must be modern or legacy, not ${era}`);
  const client = createClient({
    name: 'runtime-smoke',
    version: '1.0.0',
    era,
    handlers: {
      elicitation: async () => ({ action: 'accept', content: { username: 'smoke', email: 'a@b.c' } }),
    },
  });
  await client.connect(streamableHttp(url));
  try {
    if (client.era !== era) throw new Error(`connected in the ${client.era} era, not ${era}`);
    const tools = await client.listTools();
    const echo = await client.callTool('echo', { text: 'hello' });
    const text = (echo.content as { type: string; text?: string }[])[0]?.text;
    if (text !== 'hello') throw new Error(`echo answered ${JSON.stringify(echo.content)}`);
    const elicited = await client.callTool('test_elicitation', { message: 'who?' });
    if (elicited.isError) throw new Error(`test_elicitation failed: ${JSON.stringify(elicited.content)}`);
    return `${tools.length} tools, echo and an elicitation answered (${client.protocolVersion})`;
  } finally {
    await client.close();
  }
}
