/**
 * The servers of the first-result scenario (bench/scenarios/first-result.ts) when the
 * referee's own (../shared/referee) are not there: `node first-result.js json|zod|bare-zod
 * [echo.js]`. `json` and `zod` are mcpkit with one `echo` tool, as the referee's
 * `mcpkit/stdio-json.mjs` and `mcpkit/stdio.mjs` write them; `bare-zod` imports zod and then
 * runs a bare echo (the given file, else bench/servers/bare.js): the yardstick for
 * a zod server.
 */
import { pathToFileURL } from 'node:url';

const ECHO_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const;

async function mcpkit(kind: 'json' | 'zod'): Promise<void> {
  const { createServer } = await import('../../src/server/index.js');
  const { serveStdio } = await import('../../src/integrations/stdio/index.js');
  const server = createServer({ name: 'bench-first-result', version: '0.0.0' });
  const description = 'Echo the text argument back';
  const echo = async ({ text }: { text: string }) => ({ content: [{ type: 'text' as const, text }] });
  if (kind === 'json') {
    server.tool('echo', { description, inputSchema: ECHO_SCHEMA }, (args) => echo(args as { text: string }));
  } else {
    const { z } = await import('zod');
    server.tool('echo', { description, inputSchema: z.object({ text: z.string() }) }, echo);
  }
  await serveStdio(server);
}

async function bareWithZod(echoFile: string | undefined): Promise<void> {
  await import('zod');
  const target = echoFile ? pathToFileURL(echoFile).href : new URL('./bare.js', import.meta.url).href;
  process.argv.splice(2, process.argv.length - 2, 'stdio'); // bare.js reads its wire from argv[2]
  await import(target);
}

const kind = process.argv[2];
if (kind === 'json' || kind === 'zod') await mcpkit(kind);
else if (kind === 'bare-zod') await bareWithZod(process.argv[3]);
else throw new Error(`usage: node first-result.js json|zod|bare-zod [echo.js] (got ${String(kind)})`);
