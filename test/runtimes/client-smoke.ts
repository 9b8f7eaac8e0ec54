/**
 * The client smoke test each runtime runs (scripts/conformance.mjs, leg `client-runtimes`):
 * mcpkit's client on this runtime reaches an everything server over Streamable HTTP in the
 * era named on the command line, lists its tools, calls `echo`, and answers an elicitation
 * (a server-initiated request on legacy, `input_required` on modern).
 * Usage: RUNTIME client-smoke.js URL modern|legacy — prints one line, exits 1 on any failure.
 */
import { createClient, streamableHttp } from '../../src/client/index.js';

const [url, era] = process.argv.slice(-2);

async function smoke(): Promise<string> {
  if (!url || (era !== 'modern' && era !== 'legacy'))
    throw new Error('usage: client-smoke.js URL modern|legacy');
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

smoke().then(
  (summary) => console.log(`client smoke ${era}: ${summary}`),
  (error: unknown) => {
    console.error(
      `client smoke ${era}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
