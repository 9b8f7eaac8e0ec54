/**
 * The filesystem server's tools, answering as the official server does: the same texts,
 * the same `structuredContent`, and a failure as an `isError` result holding only the
 * error's message.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  errorResult,
  type McpServer,
  type RequestContext,
  type StructuredToolReturn,
  type ToolDefinition,
  type ToolErrorResult,
  type ToolResult,
} from '../../src/server/index.js';
import type { ContentBlock } from '../../src/core/index.js';
import { FILESYSTEM_TOOLS } from './definitions.js';
import { applyEdits, type Edit } from './edit.js';
import * as io from './io.js';
import { validatePath } from './paths.js';
import type { AllowedDirectories } from './roots.js';
import { directoryTree, searchFiles } from './walk.js';

type Args = Record<string, unknown>;
/** A tool's definition with its JSON Schemas as plain records (their types are not inferred). */
type Definition = ToolDefinition<Args, Args> & { outputSchema: Args };
/** A successful answer: text, or a result with its `structuredContent`. */
type Answer = string | (ToolResult<Args> & { structuredContent: Args });
type Handler = (args: Args, ctx: RequestContext, dirs: readonly string[]) => Promise<Answer>;

/** A text answer, also as `structuredContent.content`. */
function text(value: string): ToolResult<Args> & { structuredContent: Args } {
  return { content: [{ type: 'text', text: value }], structuredContent: { content: value } };
}

const str = (args: Args, key: string): string => args[key] as string;
const strings = (args: Args, key: string): string[] => (args[key] as string[] | undefined) ?? [];

/** Registers every tool on `server`; each handler sees the allowed directories of its request. */
export function registerFilesystemTools(server: McpServer, allowed: AllowedDirectories): void {
  for (const [name, handler] of Object.entries(HANDLERS)) {
    const definition = FILESYSTEM_TOOLS[name as keyof typeof FILESYSTEM_TOOLS] as unknown as Definition;
    server.tool(
      name,
      definition,
      async (args: Args, ctx: RequestContext): Promise<StructuredToolReturn<Args>> => {
        try {
          const dirs = await allowed.of(ctx);
          const answer = await handler(args, ctx, dirs);
          return typeof answer === 'string' ? text(answer) : answer;
        } catch (error) {
          return errorResult(error instanceof Error ? error.message : String(error)) as ToolErrorResult;
        }
      },
    );
  }
}

const readTextFile: Handler = async (args, _ctx, dirs) => {
  const real = await validatePath(str(args, 'path'), dirs);
  const { head, tail } = args as { head?: number; tail?: number };
  if (head && tail) throw new Error('Cannot specify both head and tail parameters simultaneously');
  if (tail) return io.tailText(real, dirs, tail);
  if (head) return io.headText(real, dirs, head);
  return io.readText(real, dirs);
};

const readMediaFile: Handler = async (args, _ctx, dirs) => {
  const real = await validatePath(str(args, 'path'), dirs);
  const mimeType = io.mediaType(real);
  const data = await io.readBase64(real, dirs);
  const kind = mimeType.split('/')[0];
  const block: ContentBlock =
    kind === 'image' || kind === 'audio'
      ? { type: kind, data, mimeType }
      : { type: 'resource', resource: { uri: pathToFileURL(real).href, mimeType, blob: data } };
  return { content: [block], structuredContent: { content: [block] } };
};

const readMultipleFiles: Handler = async (args, _ctx, dirs) => {
  const parts = await Promise.all(
    strings(args, 'paths').map(async (requested) => {
      try {
        return `${requested}:\n${await io.readText(await validatePath(requested, dirs), dirs)}\n`;
      } catch (error) {
        return `${requested}: Error - ${error instanceof Error ? error.message : String(error)}`;
      }
    }),
  );
  return parts.join('\n---\n');
};

const listDirectory: Handler = async (args, _ctx, dirs) => {
  const entries = await fs.readdir(await validatePath(str(args, 'path'), dirs), { withFileTypes: true });
  return entries.map((e) => `${e.isDirectory() ? '[DIR]' : '[FILE]'} ${e.name}`).join('\n');
};

const listWithSizes: Handler = async (args, _ctx, dirs) => {
  const real = await validatePath(str(args, 'path'), dirs);
  const entries = await fs.readdir(real, { withFileTypes: true });
  const sized = await Promise.all(
    entries.map(async (e) => ({
      name: e.name,
      dir: e.isDirectory(),
      size: (await fs.stat(path.join(real, e.name)).catch(() => undefined))?.size ?? 0,
    })),
  );
  const sorted = [...sized].sort((a, b) =>
    args.sortBy === 'size' ? b.size - a.size : a.name.localeCompare(b.name),
  );
  const lines = sorted.map(
    (e) =>
      `${e.dir ? '[DIR]' : '[FILE]'} ${e.name.padEnd(30)} ${e.dir ? '' : io.formatSize(e.size).padStart(10)}`,
  );
  const files = sized.filter((e) => !e.dir);
  const total = files.reduce((sum, e) => sum + e.size, 0);
  return [
    ...lines,
    '',
    `Total: ${files.length} files, ${sized.length - files.length} directories`,
    `Combined size: ${io.formatSize(total)}`,
  ].join('\n');
};

const HANDLERS: Record<keyof typeof FILESYSTEM_TOOLS, Handler> = {
  read_file: readTextFile,
  read_text_file: readTextFile,
  read_media_file: readMediaFile,
  read_multiple_files: readMultipleFiles,
  write_file: async (args, _ctx, dirs) => {
    await io.writeAtomic(await validatePath(str(args, 'path'), dirs), str(args, 'content'), dirs);
    return `Successfully wrote to ${str(args, 'path')}`;
  },
  edit_file: async (args, _ctx, dirs) => {
    const real = await validatePath(str(args, 'path'), dirs);
    return applyEdits(real, args.edits as Edit[], { dryRun: args.dryRun === true, dirs });
  },
  create_directory: async (args, _ctx, dirs) => {
    await io.makeDirectory(await validatePath(str(args, 'path'), dirs), dirs);
    return `Successfully created directory ${str(args, 'path')}`;
  },
  list_directory: listDirectory,
  list_directory_with_sizes: listWithSizes,
  directory_tree: async (args, ctx, dirs) => {
    const tree = await directoryTree(str(args, 'path'), {
      excludePatterns: strings(args, 'excludePatterns'),
      dirs: () => dirs,
      ctx,
    });
    return JSON.stringify(tree, null, 2);
  },
  move_file: async (args, _ctx, dirs) => {
    const source = await validatePath(str(args, 'source'), dirs);
    await io.moveEntry(source, await validatePath(str(args, 'destination'), dirs));
    return `Successfully moved ${str(args, 'source')} to ${str(args, 'destination')}`;
  },
  search_files: async (args, ctx, dirs) => {
    const root = await validatePath(str(args, 'path'), dirs);
    const found = await searchFiles(root, {
      pattern: str(args, 'pattern'),
      excludePatterns: strings(args, 'excludePatterns'),
      dirs: () => dirs,
      ctx,
    });
    return found.length > 0 ? found.join('\n') : 'No matches found';
  },
  get_file_info: async (args, _ctx, dirs) => io.fileInfo(await validatePath(str(args, 'path'), dirs)),
  list_allowed_directories: async (_args, _ctx, dirs) => `Allowed directories:\n${dirs.join('\n')}`,
};
