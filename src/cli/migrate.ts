/**
 * `mcpkit migrate FILE...`: rewrites code written against the official SDK v1 for mcpkit, in
 * place (or printed with `--dry-run`), on ts-morph's syntax tree (src/cli/migrate-rules.ts).
 * ts-morph is an optional dependency, loaded only by this command.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError } from './errors.js';
import type { Project, SourceFile } from 'ts-morph';
import type { TsMorph } from './migrate-core.js';

/** A parsed `migrate` command line. */
export type MigrateCommand =
  { name: 'migrate'; help: true } | { name: 'migrate'; files: string[]; dryRun: boolean };

/** Help for `migrate`. */
const MIGRATE_USAGE = `Usage: mcpkit migrate [--dry-run] FILE...

Rewrites code written against @modelcontextprotocol/sdk v1 for mcpkit, in place: the
imports, new McpServer, registerTool/tool, registerResource/resource with
ResourceTemplate, registerPrompt/prompt, the stdio server transport and server.connect,
Express routes with the Streamable HTTP server transport (as mcpExpress), the client's
Client, its stdio and Streamable HTTP transports, and callTool, readResource, getPrompt,
request(..., ResultSchema) and the list calls. What it cannot rewrite safely gets a
TODO(mcpkit) comment, and each is printed. A file with a syntax error stops the run and no
file is written. Needs ts-morph: npm install -D ts-morph

Flags:
  --dry-run    print the rewritten files instead of writing them`;

/** The files the codemod reads: TypeScript and JavaScript sources. */
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

/**
 * The text of `path` when it is a UTF-8 TypeScript or JavaScript source file.
 * @throws CliError (usage) for a missing file, a directory, another extension, or bytes that
 *   are not UTF-8 (rewriting such a file would corrupt it).
 */
function sourceText(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new CliError(`migrate: no file ${path}`);
  if (!stat.isFile()) throw new CliError(`migrate: ${path} is not a file`);
  if (!SOURCE_EXTENSIONS.has(extname(path).toLowerCase()))
    throw new CliError(
      `migrate: ${path} is not a TypeScript or JavaScript file (${[...SOURCE_EXTENSIONS].join(' ')})`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(path));
  } catch {
    throw new CliError(`migrate: ${path} is not UTF-8 text; left as it is`);
  }
}

/** Parses the arguments after `migrate`. */
export function parseMigrateCommand(argv: readonly string[]): MigrateCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' }, 'dry-run': { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new CliError(
      `migrate: ${error instanceof Error ? error.message.split(/\.\s/)[0] : 'bad arguments'}`,
    );
  }
  if (parsed.values.help) return { name: 'migrate', help: true };
  if (parsed.positionals.length === 0)
    throw new CliError('`migrate` takes one or more files; run `mcpkit migrate --help`');
  return { name: 'migrate', files: parsed.positionals, dryRun: parsed.values['dry-run'] === true };
}

async function loadTsMorph(): Promise<TsMorph> {
  try {
    return await import('ts-morph');
  } catch (error) {
    throw new CliError('`migrate` needs ts-morph: run `npm install -D ts-morph`', { cause: error });
  }
}

/** The first syntax error of `file` as `path:line:col: message`, if it has one. */
function syntaxError(project: Project, file: SourceFile, path: string): string | undefined {
  const [first] = project.getProgram().getSyntacticDiagnostics(file);
  if (!first) return undefined;
  const { line, column } = file.getLineAndColumnAtPos(first.getStart() ?? 0);
  const message = first.getMessageText();
  const text = typeof message === 'string' ? message : message.getMessageText();
  return `${path}:${line}:${column}: ${text.replace(/\.$/, '')}`;
}

/** `text` with the line endings of `original`: a CRLF file stays CRLF after the rewrite. */
function sameLineEndings(original: string, text: string): string {
  return original.includes('\r\n') ? text.replace(/\r?\n/g, '\r\n') : text;
}

/**
 * Runs the codemod; resolves with the report (each file, and its TODOs). Every file is read
 * and parsed before any is written, and every rewrite parsed again, so one refusal leaves
 * all of them as they were.
 * @throws CliError (usage) naming `file:line:col` of a syntax error in an input, and
 *   (failure) when a rewrite would not parse.
 */
export async function runMigrate(command: MigrateCommand): Promise<string> {
  if ('help' in command) return MIGRATE_USAGE;
  const ts = await loadTsMorph();
  const { migrateSource } = await import('./migrate-rules.js');
  const project = new ts.Project({
    compilerOptions: { allowJs: true },
    manipulationSettings: { quoteKind: ts.QuoteKind.Single },
    skipAddingFilesFromTsConfig: true,
  });
  // A file named twice (or by two spellings) is rewritten once.
  const seen = new Set<string>();
  const given = command.files.filter((path) => !seen.has(resolve(path)) && seen.add(resolve(path)));
  const sources = given.map((path) => {
    const text = sourceText(path);
    const file = project.createSourceFile(resolve(path), text, { overwrite: true });
    const error = syntaxError(project, file, path);
    if (error) throw new CliError(`migrate: syntax error at ${error}; no file was changed`);
    return { path, text, file };
  });
  const results = sources.map(({ path, text, file }) => {
    const todos = migrateSource(file, ts);
    const error = syntaxError(project, file, path);
    if (error)
      throw new CliError(`migrate: the rewrite of ${path} does not parse (${error}); no file was changed`, {
        kind: 'failure',
      });
    return { path, todos, before: text, after: sameLineEndings(text, file.getFullText()) };
  });
  const lines: string[] = [];
  for (const { path, todos, before, after } of results) {
    const changed = after !== before;
    if (command.dryRun) lines.push(after);
    else if (changed) writeFileSync(path, after);
    const outcome = changed ? 'migrated' : 'unchanged (nothing written for the SDK v1)';
    lines.push(`${path}: ${outcome}${todos.length > 0 ? `, ${todos.length} TODO(mcpkit)` : ''}`);
    for (const todo of todos) lines.push(`  ${path}:${todo}`);
  }
  return lines.join('\n');
}
