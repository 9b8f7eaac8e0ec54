/**
 * `--port N` from the command line (0, a free port, when absent); shared by the framework
 * examples.
 */
import { parseArgs } from 'node:util';

/** The `--port` value; exits with a message when it is not a port number. */
export function portArgument(): number {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number, got ${values.port}`);
    process.exit(2);
  }
  return port;
}
