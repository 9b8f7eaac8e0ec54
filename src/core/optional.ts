/**
 * Optional packages: what only one feature uses (OpenAPI documents, tool search, the CLI's
 * replay) is an optional peer dependency of mcpkit, so a project that writes a server or a
 * client does not install it. The feature loads it on first use through `loadOptional`,
 * and a project that uses the feature installs the package itself.
 */
import { LocalError } from './errors.js';

/**
 * Runs `load` (an `import()` of the package `name`, written out so bundlers see it).
 * @throws LocalError `MISSING_DEPENDENCY` when `name` is not installed, saying which
 *   feature needs it and the npm command that installs it; any other failure as it is.
 */
export async function loadOptional<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
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
    throw new LocalError('MISSING_DEPENDENCY', `${feature} needs the package ${name}: npm install ${name}`, {
      cause: error,
    });
  }
}
