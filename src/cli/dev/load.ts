/**
 * Loading a server file for `mcpkit dev`: esbuild bundles the file and every local module
 * it imports (TypeScript or JavaScript, no build step, no tsconfig needed; packages stay
 * external and load from node_modules as usual) into one ES module written beside the file
 * (so its package imports resolve from there), which is imported and deleted. Each load is a
 * new module, so the file's definition is evaluated afresh; esbuild's metafile gives the
 * local files to watch. esbuild strips types without checking them.
 */
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpServer } from '../../server/index.js';
import { loadPeer } from '../peer.js';

type Esbuild = typeof import('esbuild');

/** What the CLI says when esbuild is missing: how to add it, with and without a local mcpkit. */
const ESBUILD_INSTALL =
  'npm install --save-dev esbuild (beside mcpkit; with npx and no local mcpkit: npx -p mcpkit -p esbuild mcpkit dev FILE)';

/** esbuild, loaded on first use. @throws LocalError `MISSING_DEPENDENCY` saying how to install it. */
function loadEsbuild(): Promise<Esbuild> {
  return loadPeer(
    { name: 'esbuild', feature: '`mcpkit dev`', install: ESBUILD_INSTALL },
    () => import('esbuild'),
  );
}

/** A load that failed: `message` says where (file:line:column for a syntax error) and why. */
export class LoadFailure extends Error {
  /** The local files read before the failure (still watched, so fixing any of them reloads). */
  readonly files: readonly string[];
  constructor(message: string, files: readonly string[]) {
    super(message);
    this.name = 'LoadFailure';
    this.files = files;
  }
}

/** One successful load: the server definition and the local files it is made of (absolute paths). */
export interface Loaded {
  server: McpServer;
  files: string[];
}

let loads = 0;

/**
 * Bundles, imports and evaluates `file`; its default export is an McpServer or a (possibly
 * async) function returning one. @throws LoadFailure for a syntax error, an error thrown
 * while evaluating, or a default export that is not a server.
 */
export async function loadServerFile(file: string): Promise<Loaded> {
  const esbuild = await loadEsbuild();
  const entry = resolve(file);
  const bundled = await bundle(esbuild, entry);
  const out = join(dirname(entry), `.${basename(entry)}.mcpkit-dev-${process.pid}-${++loads}.mjs`);
  let exported: unknown;
  try {
    await writeFile(out, bundled.code);
    exported = ((await import(pathToFileURL(out).href)) as { default?: unknown }).default;
    if (typeof exported === 'function') exported = await (exported as () => unknown)();
  } catch (error) {
    throw new LoadFailure(
      `${relative(process.cwd(), entry)} failed while loading: ${describe(error)}`,
      bundled.files,
    );
  } finally {
    await rm(out, { force: true });
  }
  if (!isServer(exported))
    throw new LoadFailure(
      `${relative(process.cwd(), entry)}: the default export must be an McpServer (createServer(...)) or a function returning one`,
      bundled.files,
    );
  return { server: exported, files: bundled.files };
}

async function bundle(esbuild: Esbuild, entry: string): Promise<{ code: string; files: string[] }> {
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      sourcemap: 'inline',
      logLevel: 'silent',
      absWorkingDir: process.cwd(),
      outfile: join(dirname(entry), 'bundle.mjs'),
    });
    const files = Object.keys(result.metafile.inputs)
      .map((input) => resolve(input))
      .filter((path) => !path.split(/[\\/]/).includes('node_modules'));
    return { code: result.outputFiles[0]!.text, files };
  } catch (error) {
    const errors = (error as { errors?: import('esbuild').Message[] }).errors;
    if (!errors) throw error;
    const files = errors.flatMap((e) => (e.location ? [resolve(e.location.file)] : []));
    throw new LoadFailure(errors.map(formatMessage).join('\n'), [entry, ...files]);
  }
}

/** `file:line:column: error: text`, and the offending line, as compilers print them. */
function formatMessage(message: import('esbuild').Message): string {
  const at = message.location;
  if (!at) return `error: ${message.text}`;
  return `${at.file}:${at.line}:${at.column + 1}: error: ${message.text}\n    ${at.lineText.trim()}`;
}

/** The error's message and the first line of its stack that points into the user's files. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frame = error.stack
    ?.split('\n')
    .slice(1)
    .find((line) => !line.includes('node_modules') && !line.includes('node:'));
  return frame ? `${error.message} (${frame.trim().replace(/^at /, 'at ')})` : error.message;
}

/** An McpServer from any copy of mcpkit: the members dev uses. */
function isServer(value: unknown): value is McpServer {
  const v = value as Partial<McpServer> | null | undefined;
  return typeof v?.tool === 'function' && typeof v.transform === 'function' && typeof v.mount === 'function';
}
