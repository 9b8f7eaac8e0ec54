/**
 * mcpkit's filesystem server: a drop-in for `@modelcontextprotocol/server-filesystem`
 * (`mcp-server-filesystem DIR…`), on both eras. The same tools, schemas and answers; beyond
 * the official one, files as resources through the template `file://{+path}`, progress on
 * `directory_tree` and `search_files`, and checks at the moment of use (see io.ts).
 * Allowed directories come from the command line and, when the client has them, its roots.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { LocalError, WireError } from '../../src/core/index.js';
import { loadFilesystemDeps } from './deps.js';
import { createServer, type McpServer, type RequestContext } from '../../src/server/index.js';
import * as io from './io.js';
import { directoriesFromArgs, validatePath } from './paths.js';
import { AllowedDirectories } from './roots.js';
import { registerFilesystemTools } from './tools.js';

/** The official server's name and version, which clients may key on. */
const FILESYSTEM_NAME = 'secure-filesystem-server';
const FILESYSTEM_VERSION = '0.2.0';

const USAGE = 'usage: mcpkit serve filesystem [--] DIR [DIR...]';

/**
 * Creates the filesystem server for the official command line: the allowed directories
 * (none: they come from the client's roots). `env` is unused (the official server reads none).
 * @throws LocalError `INVALID_ARGUMENT` for an option, or when no given directory is usable.
 */
export async function createReferenceServer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<McpServer> {
  void env;
  await loadFilesystemDeps();
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...argv], options: {}, allowPositionals: true, strict: true }));
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${(error as Error).message}; ${USAGE}`);
  }
  if (positionals.length === 0)
    console.error(`${USAGE}\nWith no directory, the client's roots give the allowed directories.`);
  const fromArgs = await directoriesFromArgs(positionals).catch((error: Error) => {
    throw new LocalError('INVALID_ARGUMENT', `${error.message}; ${USAGE}`);
  });
  return createFilesystemServer(new AllowedDirectories(fromArgs));
}

/** The filesystem server over `allowed`. */
function createFilesystemServer(allowed: AllowedDirectories): McpServer {
  const server = createServer({ name: FILESYSTEM_NAME, version: FILESYSTEM_VERSION });
  server.use((next) => (message, ctx) => {
    if (message.kind === 'notification' && message.method === 'notifications/roots/list_changed')
      allowed.rootsChanged();
    return next(message, ctx);
  });
  registerFilesystemTools(server, allowed);
  server.resourceTemplate(
    'file://{+path}',
    { name: 'file', title: 'File', description: 'A file under the allowed directories, by its file:// URI.' },
    (uri, _variables, ctx) => readFileResource(uri, allowed, ctx),
  );
  return server;
}

/**
 * A file as a resource: text when it decodes as UTF-8 without loss, else a blob.
 * @throws WireError -32002 (resource not found) for a path outside the roots or unreadable.
 */
async function readFileResource(uri: string, allowed: AllowedDirectories, ctx: RequestContext) {
  const dirs = await allowed.of(ctx);
  try {
    // URL parsing resolves `..` and percent-encoded dots before the check sees the path.
    const real = await validatePath(fileURLToPath(uri), dirs);
    const handle = await io.openForReading(real, dirs);
    const bytes = await handle.readFile().finally(() => handle.close());
    const mimeType = io.mediaType(real);
    const textual = new TextDecoder('utf-8', { fatal: true });
    try {
      const text = textual.decode(bytes);
      return [{ uri, mimeType: mimeType === 'application/octet-stream' ? 'text/plain' : mimeType, text }];
    } catch {
      return [{ uri, mimeType, blob: bytes.toString('base64') }];
    }
  } catch (error) {
    throw WireError.of('ResourceNotFound', `Resource not found: ${uri} (${(error as Error).message})`);
  }
}
