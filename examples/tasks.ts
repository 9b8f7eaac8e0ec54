/**
 * The Tasks extension end to end in one process: a tool that may run as a task and asks
 * for approval midway, and a client that allows tasks, answers the approval with its
 * elicitation handler and waits for the result.
 *
 * Run: npm run build && node dist/examples/tasks.js
 * In your project, import from 'mcpkit/server', 'mcpkit/client' and 'mcpkit/node'.
 */
import { z } from 'zod';
import { createClient, streamableHttp, TaskHandle } from '../src/client/index.js';
import { serve } from '../src/integrations/node/index.js';
import { createServer } from '../src/server/index.js';

async function main(): Promise<void> {
  const server = createServer({ name: 'reports', version: '1.0.0', tasks: { pollIntervalMs: 200 } });
  server.tool(
    'report',
    { inputSchema: z.object({ topic: z.string() }), task: 'optional' },
    async ({ topic }, ctx) => {
      ctx.progress(1, { total: 2, message: `drafting ${topic}` });
      const answer = await ctx.elicit({
        message: `Publish the report on ${topic}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return answer.action === 'accept' && answer.content?.ok ? `published ${topic}` : 'kept as draft';
    },
  );
  const served = await serve(server, { port: 0 });

  const client = createClient({
    name: 'reader',
    version: '1.0.0',
    handlers: {
      elicitation: async (params) => (
        console.log(params.message),
        { action: 'accept', content: { ok: true } }
      ),
    },
  });
  await client.connect(streamableHttp(served.url));
  const outcome = await client.callTool('report', { topic: 'bees' }, { task: 'allow' });
  if (outcome instanceof TaskHandle) {
    console.log('task', outcome.taskId, (await outcome.status()).status);
    const saved = JSON.stringify(outcome.reference); // what you would persist
    const result = await client.resumeTask(JSON.parse(saved)).result();
    console.log(result.content);
  } else console.log('answered at once', outcome.content);
  await client.close();
  server.stopTasks();
  await served.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
