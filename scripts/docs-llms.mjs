// llms.txt and llms-full.txt of the site (https://llmstxt.org): written into the built site
// (docs/.vitepress/dist) after `vitepress build`, from the same Markdown pages, with each
// page's Markdown beside its HTML (`/guide/tools.md`) for the links of llms.txt.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = join(ROOT, 'docs');
const OUT = join(DOCS, '.vitepress', 'dist');
const SECTIONS = [
  ['Start', ['getting-started.md', 'security.md', 'benchmarks.md', 'reference.md', 'contributing.md']],
  ['Concepts', 'concepts'],
  ['Guides', 'guide'],
  ['Migrating', 'migrate'],
];

/** A page's Markdown with front matter dropped and `<!--@include: …-->` lines expanded. */
function pageText(file) {
  const text = readFileSync(join(DOCS, file), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
  return text.replace(/^<!--@include: (\S+?)(?:\{(\d*),(\d*)\})?-->$/gm, (_m, path, from, to) => {
    const lines = readFileSync(join(DOCS, dirname(file), path), 'utf8').split('\n');
    return lines.slice(from ? Number(from) - 1 : 0, to ? Number(to) : undefined).join('\n');
  });
}

const titleOf = (text, file) => /^# (.+)$/m.exec(text)?.[1]?.replace(/`/g, '') ?? file;
/** The first paragraph after the title, as one line. */
const summaryOf = (text) =>
  (
    text
      .split(/\n\n+/)
      .find((part) => !part.startsWith('#') && !part.startsWith('```') && part.trim() !== '') ?? ''
  )
    .replace(/\s+/g, ' ')
    .slice(0, 200);

function pagesOf(section) {
  if (Array.isArray(section)) return section;
  return readdirSync(join(DOCS, section))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `${section}/${name}`);
}

const index = [
  '# mcpkit',
  '',
  '> A TypeScript implementation of the Model Context Protocol: server and client SDKs, stdio and Streamable HTTP, both eras (2026-07-28 and the legacy revisions) from one definition.',
  '',
];
const full = [...index];
for (const [name, section] of SECTIONS) {
  index.push(`## ${name}`, '');
  for (const file of pagesOf(section)) {
    const text = pageText(file);
    const url = `/${file.replace(/\.md$/, '')}.md`;
    index.push(`- [${titleOf(text, file)}](${url}): ${summaryOf(text.replace(/^# .+$/m, ''))}`);
    full.push(text.trim(), '');
    mkdirSync(dirname(join(OUT, file)), { recursive: true });
    writeFileSync(join(OUT, file), text); // each page as Markdown too, where llms.txt links
  }
  index.push('');
}
index.push(
  '## Optional',
  '',
  '- [API reference](/api/): every export of every entry point, from the declarations.',
  '',
);
writeFileSync(join(OUT, 'llms.txt'), index.join('\n'));
writeFileSync(join(OUT, 'llms-full.txt'), full.join('\n'));
