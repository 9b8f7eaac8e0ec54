/**
 * `edit_file`: applies text replacements in order (an exact match first, else a match line by
 * line ignoring surrounding whitespace, keeping the file's indentation) and answers with a
 * unified diff in a fenced block, as the official server does.
 */
import { filesystemDeps } from './deps.js';
import { readText, writeAtomic } from './io.js';

/** One replacement: `oldText` must be found (exactly, or line by line up to whitespace). */
export interface Edit {
  oldText: string;
  newText: string;
}

const lf = (text: string): string => text.replace(/\r\n/g, '\n');

/** Applies `edits` to the file (unless `dryRun`) and returns the fenced diff. @throws Error when an edit finds no match. */
export async function applyEdits(
  real: string,
  edits: readonly Edit[],
  options: { dryRun: boolean; dirs: readonly string[] },
): Promise<string> {
  const original = lf(await readText(real, options.dirs));
  let changed = original;
  for (const edit of edits) changed = applyOne(changed, edit);
  const diff = filesystemDeps().createTwoFilesPatch(real, real, original, changed, 'original', 'modified');
  let fence = '```';
  while (diff.includes(fence)) fence += '`';
  if (!options.dryRun) await writeAtomic(real, changed, options.dirs);
  return `${fence}diff\n${diff}${fence}\n\n`;
}

function applyOne(content: string, edit: Edit): string {
  const oldText = lf(edit.oldText);
  const newText = lf(edit.newText);
  if (content.includes(oldText)) return content.replace(oldText, () => newText);
  const oldLines = oldText.split('\n');
  const lines = content.split('\n');
  for (let i = 0; i + oldLines.length <= lines.length; i++) {
    const fits = oldLines.every((line, j) => line.trim() === (lines[i + j] as string).trim());
    if (!fits) continue;
    lines.splice(i, oldLines.length, ...reindent(newText, oldLines, lines[i] as string));
    return lines.join('\n');
  }
  throw new Error(`Could not find exact match for edit:\n${edit.oldText}`);
}

/** The new lines, the first at the indentation of the matched line, the rest shifted alike. */
function reindent(newText: string, oldLines: readonly string[], firstMatched: string): string[] {
  const indent = /^\s*/.exec(firstMatched)?.[0] ?? '';
  return newText.split('\n').map((line, j) => {
    if (j === 0) return indent + line.trimStart();
    const oldIndent = /^\s*/.exec(oldLines[j] ?? '')?.[0] ?? '';
    const newIndent = /^\s*/.exec(line)?.[0] ?? '';
    if (!oldIndent || !newIndent) return line;
    return indent + ' '.repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
  });
}
