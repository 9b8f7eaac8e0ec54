// The VitePress site of docs/ (docs/README.md says how pages are written).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A page's title: front matter `title:`, else its first `# ` heading, else its file name. */
function titleOf(text, fallback) {
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const title = /^title:\s*(.+)$/m.exec(front)?.[1];
  if (title) return title.replace(/^['"]|['"]$/g, '');
  return /^# (.+)$/m.exec(text)?.[1]?.replace(/`/g, '') ?? fallback;
}

/** A page's front matter `order:` (pages without one come after, by file name). */
function orderOf(text) {
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const order = Number(/^order:\s*(\S+)$/m.exec(front)?.[1]);
  return Number.isFinite(order) ? order : Infinity;
}

/** Every page of one folder as sidebar items, so a page added later is listed by itself. */
function pagesOf(folder) {
  const dir = join(DOCS, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name !== 'README.md' && name !== 'index.md')
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const slug = name.slice(0, -3);
      return { text: titleOf(text, slug), link: `/${folder}/${slug}`, order: orderOf(text), slug };
    })
    .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug))
    .map(({ text, link }) => ({ text, link }));
}

/** The API reference's sidebar, written by TypeDoc (npm run docs:api), when it is there. */
function apiSidebar() {
  const file = join(DOCS, 'api', 'typedoc-sidebar.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}

const sidebar = [
  {
    text: 'Start',
    items: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Security and limits', link: '/security' },
      { text: 'Benchmarks', link: '/benchmarks' },
      { text: 'API at a glance', link: '/reference' },
      { text: 'Architecture', link: '/architecture' },
      { text: 'Contributing', link: '/contributing' },
    ],
  },
  { text: 'Concepts', items: pagesOf('concepts') },
  { text: 'Guides', items: pagesOf('guide') },
  { text: 'Migrating', items: pagesOf('migrate') },
];

export default defineConfig({
  title: 'mcpkit',
  description: 'A TypeScript implementation of the Model Context Protocol: both eras from one definition.',
  cleanUrls: true,
  srcExclude: ['README.md'],
  lastUpdated: false,
  vite: { server: { host: '127.0.0.1' }, preview: { host: '127.0.0.1' } },
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: pagesOf('guide')[0]?.link ?? '/getting-started' },
      { text: 'API', link: '/api/' },
      { text: 'Migrating', link: '/migrate/from-sdk-v1' },
    ],
    sidebar: {
      '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar() }],
      '/': sidebar,
    },
    outline: { level: [2, 3] },
  },
});
