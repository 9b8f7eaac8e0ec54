/**
 * The CLI's optional peer dependencies (esbuild for `mcpkit dev`, smol-toml for
 * `mcpkit install codex`): a project that only writes a server or a client does not install
 * them, so each is loaded on first use and its absence is reported with the command that
 * installs it (the CLI's twin of core's loadOptional, which only public entries may reach).
 */
import { LocalError } from '../core/index.js';

/**
 * Runs `load` (an `import()` of `peer.name`, written out so bundlers see it).
 * @throws LocalError `MISSING_DEPENDENCY` when the package is not installed: "FEATURE needs
 *   the package NAME: INSTALL" (default `npm install --save-dev NAME`); any other failure as it is.
 */
export async function loadPeer<T>(
  peer: { name: string; feature: string; install?: string },
  load: () => Promise<T>,
): Promise<T> {
  const { name, feature, install } = peer;
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' ||
        code === 'MODULE_NOT_FOUND' ||
        /Cannot find (package|module)/.test(String(message))) &&
      String(message).includes(name);
    if (!missing) throw error;
    const how = install ?? `npm install --save-dev ${name}`;
    throw new LocalError('MISSING_DEPENDENCY', `${feature} needs the package ${name}: ${how}`, {
      cause: error,
    });
  }
}
