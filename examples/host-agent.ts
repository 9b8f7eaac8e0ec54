/**
 * A small agent loop over many servers: the host loads `examples/mcp.json` (the official
 * filesystem and memory servers and our everything server, all over stdio), lists the
 * merged tools, and a scripted "model" picks one tool call per turn from what it has seen
 * so far until it is done. Elicitation from any server is answered by one handler that
 * knows which server asked. Replace `decide` with a call to your model.
 *
 * Run from the clone: npm run build && node dist/examples/host-agent.js
 * In your project, import from 'mcpkit/host'.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, loadHostConfig, type Host } from '../src/host/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One tool call the model wants next, or undefined when it is done. */
type Step = { tool: string; args: Record<string, unknown> } | undefined;

/** A stand-in for the model: looks at the tools and the transcript, picks the next call. */
function decide(tools: string[], transcript: string[]): Step {
  const plan: Step[] = [
    { tool: 'filesystem__list_directory', args: { path: join(root, 'examples') } },
    { tool: 'filesystem__read_text_file', args: { path: join(root, 'examples', 'mcp.json'), head: 3 } },
    {
      tool: 'memory__create_entities',
      args: { entities: [{ name: 'mcp.json', entityType: 'file', observations: [transcript.at(-1) ?? ''] }] },
    },
    { tool: 'everything__echo', args: { text: `I made ${transcript.length} calls` } },
  ];
  return plan.slice(transcript.length).find((step) => step && tools.includes(step.tool));
}

async function agent(host: Host): Promise<void> {
  const tools = host.tools().map((t) => t.name);
  console.log(`${tools.length} tools from ${host.servers.join(', ')}`);
  const transcript: string[] = [];
  for (let step = decide(tools, transcript); step; step = decide(tools, transcript)) {
    const result = await host.callTool(step.tool, step.args);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
    console.log(`→ ${step.tool}: ${text.slice(0, 80).replace(/\s+/g, ' ')}`);
    transcript.push(text);
  }
}

async function main(): Promise<void> {
  const servers = await loadHostConfig(join(root, 'examples', 'mcp.json'));
  const host = createHost({
    servers,
    env: { ...process.env, MCPKIT_ROOT: root },
    handlers: {
      elicitation: async (params, { server }) => {
        console.log(`${server} asks: ${String(params.message)}`);
        return { action: 'decline' };
      },
    },
  });
  // A server that cannot connect is retried with backoff (`reconnecting`), then `failed`.
  host.on('status', (s) => s.reason && console.log(`${s.name} ${s.state}: ${s.reason}`));
  await host.start();
  try {
    await agent(host);
  } finally {
    await host.close();
  }
}

void main();
