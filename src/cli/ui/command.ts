/**
 * `mcpkit inspect --ui`: starts the inspector web app for the command line's target
 * (the built-in everything server when none), connects to it, prints the app's URL on
 * stdout and serves until SIGINT or SIGTERM. A failed first connection is reported and
 * the app keeps serving, so the person can fix the target in the connection panel.
 */
import type { ClientFlags } from '../args.js';
import { describeError } from '../errors.js';
import type { InspectorTarget } from './target.js';
import { Catalog, loadCatalog, type CatalogEntry } from './catalog.js';
import { LocalError } from '../../core/index.js';
import { CliError } from '../errors.js';
import { startInspector } from './server.js';
import { signalled } from '../signals.js';

function inspectorTarget(flags: ClientFlags): InspectorTarget {
  const t = flags.target;
  if (t.kind === 'http') return { kind: 'http', url: t.url, headers: flags.headers ?? {} };
  return t.kind === 'stdio' ? { kind: 'stdio', command: t.command, args: t.args } : { kind: 'builtin' };
}

/** The entries of `--config FILE`. @throws CliError (usage, exit 2) for a file that cannot be used. */
async function catalogFile(path: string): Promise<CatalogEntry[]> {
  try {
    return await loadCatalog(path);
  } catch (error) {
    if (error instanceof LocalError && error.code === 'INVALID_ARGUMENT')
      throw new CliError(error.message, { kind: 'usage', cause: error });
    throw error;
  }
}

/**
 * Serves the inspector until a signal arrives; resolves with nothing to print. With
 * `config` (`--config FILE`) the app opens on the catalogue of that file's servers and
 * connects to none until asked (unless the command line also names a server).
 * @throws CliError (usage) for a catalogue file that cannot be read or used.
 */
export async function runInspectorUi(flags: ClientFlags & { config?: string }): Promise<undefined> {
  const target = inspectorTarget(flags);
  const catalog = flags.config === undefined ? undefined : new Catalog(await catalogFile(flags.config));
  const inspector = await startInspector({
    target,
    era: flags.era,
    ...(flags.token ? { bearerToken: flags.token } : {}),
    ...(catalog ? { catalog } : {}),
  });
  const stopped = signalled();
  if (!catalog || flags.target.kind !== 'builtin')
    await inspector.bridge.connect(target, flags.era).catch((error: unknown) => {
      process.stderr.write(`mcpkit: could not connect: ${describeError(error)} (change it in the app)\n`);
    });
  process.stdout.write(`mcpkit inspector: ${inspector.url}\n(open it in a browser; Ctrl-C stops)\n`);
  await stopped;
  await inspector.close();
  return undefined;
}
