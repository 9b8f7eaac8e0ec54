/**
 * `mcpkit dev FILE`: serves the server a TypeScript or JavaScript file exports, over
 * Streamable HTTP on 127.0.0.1 (both eras) or on stdio, and reloads it in the same process
 * whenever the file or a local module it imports changes. Clients stay connected and hear
 * of what changed (see live.ts); an edit that does not load is reported with file and line,
 * and the last good definition keeps serving. Messages go to stderr.
 */
import { parseArgs } from 'node:util';
import { serveStdio } from '../../integrations/stdio/index.js';
import { CliError, describeError } from '../errors.js';
import { signalled } from '../signals.js';
import { LiveServer, type Changes } from './live.js';
import { loadServerFile, LoadFailure, type Loaded } from './load.js';
import { FileWatcher } from './watch.js';

/** The help page of `mcpkit dev`. */
const DEV_USAGE = `Usage: mcpkit dev FILE [--port N] [--ui]
       mcpkit dev FILE --stdio

Serves the server FILE exports (TypeScript or JavaScript, no build step): its default export
is an McpServer, or a function (possibly async) returning one. Without --stdio it serves
Streamable HTTP, both eras, at http://127.0.0.1:PORT/mcp (printed on stderr).

On every change to FILE or a local module it imports, the server is reloaded in the same
process: connected clients stay connected and receive notifications/tools/list_changed (and
the prompts and resources ones) for the lists that changed; calls already running finish on
the definition they started on. An edit that does not load is printed with file:line and
the last good definition keeps serving. Types are not checked (run tsc --noEmit --watch
beside it); esbuild must be installed (npm install --save-dev esbuild).

  --port N                  listen on port N (default 0: a free port, printed)
  --ui                      also serve the inspector web app connected to it (URL printed)
  --stdio                   serve on stdin/stdout instead, for a host to launch
  -h, --help                show this help`;

interface DevArgs {
  file: string;
  port: number;
  ui: boolean;
  stdio: boolean;
}

function parseDev(argv: readonly string[]): DevArgs | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        ui: { type: 'boolean' },
        stdio: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliError(`dev: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [file, ...extra] = positionals;
  if (file === undefined) throw new CliError('dev needs the server file: mcpkit dev server.ts');
  if (extra.length > 0) throw new CliError(`dev takes one file, not also \`${extra[0]}\``);
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError('--port takes a port number (0 picks one)');
  if (values.stdio && (values.ui || values.port !== undefined))
    throw new CliError('--stdio serves no port: drop --port and --ui');
  return { file, port, ui: values.ui === true, stdio: values.stdio === true };
}

const files = (count: number) => `${count} ${count === 1 ? 'file' : 'files'}`;
const say = (line: string) => process.stderr.write(`mcpkit dev: ${line}\n`);

/** `a +x ~y -z` for each list that changed. */
function describeChanges(changes: Changes): string {
  const parts = Object.entries(changes).map(([list, c]) => {
    const names = [
      ...c.added.map((n) => `+${n}`),
      ...c.changed.map((n) => `~${n}`),
      ...c.removed.map((n) => `-${n}`),
    ];
    return `${list} ${names.length > 0 ? names.join(' ') : '(reordered)'}`;
  });
  return parts.length > 0 ? parts.join('; ') : 'no list changed';
}

/** Runs `mcpkit dev` until SIGINT/SIGTERM (or, on stdio, until the client goes away). */
export async function devCommand(argv: readonly string[]): Promise<number> {
  const args = parseDev(argv);
  if (!args) {
    process.stdout.write(`${DEV_USAGE}\n`);
    return 0;
  }
  process.setSourceMapsEnabled(true);
  let first: Loaded;
  try {
    first = await loadServerFile(args.file);
  } catch (error) {
    if (error instanceof LoadFailure) throw new CliError(error.message, { kind: 'failure' });
    throw error;
  }
  if ((first.server.options.extensions ?? []).length > 0)
    say(
      'note: the protocol extensions of the file (createServer({ extensions })) are not served under mcpkit dev',
    );
  const live = new LiveServer(first.server);
  const reloader = new Reloader(args.file, live);
  reloader.watcher.watch(first.files);
  try {
    if (args.stdio) {
      say(`serving ${first.server.info.name} on stdio (watching ${files(first.files.length)})`);
      await serveStdio(live.server);
    } else await serveHttp(args, live, reloader.watcher.size);
  } finally {
    reloader.watcher.close();
  }
  return 0;
}

async function serveHttp(args: DevArgs, live: LiveServer, watching: number): Promise<void> {
  const { serve } = await import('../../integrations/node/index.js');
  const served = await serve(live.server, { port: args.port, host: '127.0.0.1' });
  say(`serving ${live.server.info.name} at ${served.url} (watching ${files(watching)}; Ctrl-C stops)`);
  const stopped = signalled();
  const inspector = args.ui ? await openInspector(served.url) : undefined;
  await stopped;
  await inspector?.close();
  live.server.closeSubscriptions();
  await served.close();
}

async function openInspector(url: string): Promise<{ close(): Promise<void> }> {
  const { startInspector } = await import('../ui/server.js');
  const target = { kind: 'http' as const, url, headers: {} };
  const inspector = await startInspector({ target, era: 'auto' });
  await inspector.bridge
    .connect(target, 'auto')
    .catch((error: unknown) => say(`the inspector could not connect: ${describeError(error)}`));
  say(`inspector at ${inspector.url}`);
  return inspector;
}

/** Reloads on file changes, one load at a time (a change during a load reloads once more). */
class Reloader {
  readonly watcher: FileWatcher;
  readonly #file: string;
  readonly #live: LiveServer;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(file: string, live: LiveServer) {
    this.#file = file;
    this.#live = live;
    this.watcher = new FileWatcher(() => this.#reload());
  }

  #reload(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#once();
      } while (this.#again);
      this.#running = undefined;
    })();
  }

  async #once(): Promise<void> {
    const started = performance.now();
    try {
      const loaded = await loadServerFile(this.#file);
      const changes = this.#live.replace(loaded.server);
      this.watcher.watch(loaded.files);
      say(`reloaded in ${Math.round(performance.now() - started)} ms: ${describeChanges(changes)}`);
    } catch (error) {
      if (error instanceof LoadFailure) this.watcher.watch([...error.files, ...this.watcher.files]);
      const message = error instanceof Error ? error.message : String(error);
      say(`${message}\nmcpkit dev: still serving the last good definition`);
    }
  }
}
