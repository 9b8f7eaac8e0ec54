/**
 * `mcpkit gateway` and `mcpkit proxy`: a host over the configured servers (or one server)
 * served as one MCP server on stdio or Streamable HTTP until the client goes away or a
 * signal arrives; then every backend is closed (children reaped) before exiting.
 */
import { createGateway, createHost, loadHostConfig, type Host, type ServersConfig } from '../host/index.js';
import { serve } from '../integrations/node/index.js';
import { serveStdio } from '../integrations/stdio/index.js';
import { CliError } from './errors.js';
import { HOST_USAGE, type Front, type HostCommand } from './host-args.js';
import { signalled } from './signals.js';

/** Runs the command until it is told to stop; returns a help text when asked for help. */
export async function runHostCommand(
  command: HostCommand,
): Promise<{ text: string; failed: boolean } | undefined> {
  if (command.help) return { text: HOST_USAGE[command.name], failed: false };
  const host = await hostFor(command);
  host.on('status', (s) =>
    process.stderr.write(`mcpkit: ${s.name}: ${s.state}${s.reason ? ` (${s.reason})` : ''}\n`),
  );
  host.on('warning', (w) => process.stderr.write(`mcpkit: ${w.server}: warning: ${w.message}\n`));
  await host.start();
  const gateway = createGateway(host, {
    name: command.name === 'gateway' ? 'mcpkit-gateway' : 'mcpkit-proxy',
  });
  for (const [name, issue] of gateway.issues) process.stderr.write(`mcpkit: not served: ${name}: ${issue}\n`);
  await serveFront(command, gateway.server, host);
  gateway.close();
  await host.close();
  return undefined;
}

/** The host over the configured servers; configuration problems are usage errors (exit 2). */
async function hostFor(command: Exclude<HostCommand, { help: true }>): Promise<Host> {
  try {
    const servers: ServersConfig =
      command.name === 'gateway' ? await loadHostConfig(command.config) : { proxy: command.backend };
    return createHost({
      servers,
      policy: { elicitation: 'allow', sampling: 'allow', roots: 'allow' },
      logLevel: 'debug',
      ...(command.name === 'proxy' ? { qualify: (_server: string, name: string) => name } : {}),
    });
  } catch (error) {
    throw new CliError((error as Error).message, { cause: error });
  }
}

async function serveFront(
  front: Front,
  server: ReturnType<typeof createGateway>['server'],
  host: Host,
): Promise<void> {
  if (front.port === undefined) {
    const connection = await serveStdio(server, { exitOnClose: false });
    await Promise.race([connection.closed, signalled()]);
    return;
  }
  const served = await serve(server, { port: front.port, ...(front.host ? { host: front.host } : {}) });
  process.stderr.write(
    `mcpkit: serving ${host.servers.length} server(s) at ${served.url} (Ctrl-C to stop)\n`,
  );
  await signalled();
  await served.close();
}
