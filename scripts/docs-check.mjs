// Checks the built site (docs/.vitepress/dist, from `npm run docs:build`): every internal
// link and #anchor of every page resolves, the local search index and llms.txt/llms-full.txt
// are there, and a headless chromium (Debian's, as test/browser uses) renders the home page
// and a few pages, every image on them loaded, kept as screenshots in test-artifacts/docs/;
// and docs/reference.md lists every value export of the API snapshots (scripts/reference-gaps.mjs).
// Exits 1 naming what is broken.
/* global URL, document */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { referenceGaps } from './reference-gaps.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SITE = join(ROOT, 'docs', '.vitepress', 'dist');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'docs');

function filesOf(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : [path];
  });
}

/** The file a site URL path names, with VitePress's clean URLs (`/guide/tools` → tools.html). */
function fileOf(pathname) {
  const path = decodeURIComponent(pathname);
  if (path.endsWith('/')) return join(SITE, path, 'index.html');
  if (extname(path) !== '') return join(SITE, path);
  return join(SITE, `${path}.html`);
}

const decode = (text) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Every broken internal link or anchor of the built pages, as `page: href (why)`. */
function brokenLinks(pages) {
  const ids = new Map();
  const idsOf = (file) => {
    if (!ids.has(file)) {
      const html = existsSync(file) ? readFileSync(file, 'utf8') : '';
      ids.set(file, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]))));
    }
    return ids.get(file);
  };
  const broken = [];
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    const pageUrl = new URL(`/${relative(SITE, page).replace(/(index)?\.html$/, '')}`, 'http://site');
    for (const [, attr, raw] of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
      const href = decode(raw);
      if (/^[a-z]+:/i.test(href) || href.startsWith('//') || href === '') continue;
      if (attr === 'href' && href.startsWith('/assets/')) continue;
      const url = new URL(href, pageUrl);
      const target = url.pathname === pageUrl.pathname && href.startsWith('#') ? page : fileOf(url.pathname);
      const where = `${relative(SITE, page)}: ${href}`;
      if (!existsSync(target)) broken.push(`${where} (no page ${relative(SITE, target)})`);
      else if (
        url.hash.length > 1 &&
        target.endsWith('.html') &&
        !idsOf(target).has(decodeURIComponent(url.hash.slice(1)))
      )
        broken.push(`${where} (no anchor ${url.hash} in ${relative(SITE, target)})`);
    }
  }
  return broken;
}

/** What llms.txt and the search index need: the files, and every page llms.txt links to. */
function brokenExtras() {
  const broken = [];
  for (const name of ['llms.txt', 'llms-full.txt']) {
    const file = join(SITE, name);
    if (!existsSync(file) || statSync(file).size < 1000) broken.push(`${name} missing or empty`);
  }
  if (existsSync(join(SITE, 'llms.txt'))) {
    for (const [, link] of readFileSync(join(SITE, 'llms.txt'), 'utf8').matchAll(/\]\((\/[^)]*)\)/g))
      if (!existsSync(fileOf(link))) broken.push(`llms.txt: ${link} (no file)`);
  }
  const chunks = join(SITE, 'assets', 'chunks');
  if (!existsSync(chunks) || !readdirSync(chunks).some((name) => name.startsWith('@localSearchIndex')))
    broken.push('no local search index in assets/chunks');
  return broken;
}

/** Serves the built site on 127.0.0.1 at a random port. */
function serveSite() {
  const TYPES = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.json': 'application/json',
    '.woff2': 'font/woff2',
  };
  const http = createServer((request, response) => {
    const file = fileOf(new URL(request.url ?? '/', 'http://site').pathname);
    if (!file.startsWith(SITE) || !existsSync(file)) return response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

/** Renders `paths` in chromium and saves a screenshot of each; returns what did not render. */
async function screenshots(paths) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const http = await serveSite();
  const { browser, close } = await launchChromium('mcpkit-docs-chromium-');
  const problems = [];
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    for (const [path, name, text] of paths) {
      await page.goto(`http://127.0.0.1:${http.address().port}${path}`, { waitUntil: 'networkidle0' });
      const body = await page.evaluate(() => document.body.innerText);
      if (!body.includes(text)) problems.push(`${path} rendered without "${text}"`);
      const unloaded = await page.evaluate(() =>
        [...document.images].filter((img) => img.naturalWidth === 0).map((img) => img.src),
      );
      for (const src of unloaded) problems.push(`${path}: the image ${src} did not load`);
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
    }
  } finally {
    await close();
    http.close();
  }
  return problems;
}

if (!existsSync(join(SITE, 'index.html'))) {
  console.error('docs-check: no built site; run `npm run docs:build` first');
  process.exit(1);
}
const pages = filesOf(SITE).filter((file) => file.endsWith('.html'));
const problems = [
  ...referenceGaps().map((gap) => `docs/reference.md: ${gap}`),
  ...brokenLinks(pages),
  ...brokenExtras(),
  ...(await screenshots([
    ['/', 'home', 'The Model Context Protocol in TypeScript'],
    ['/getting-started', 'getting-started', 'npm pkg set type=module'],
    ['/concepts/eras', 'eras', 'How the client finds out'],
    ['/guide/fleet', 'fleet', 'The fleet on Redis'],
  ])),
];
for (const problem of problems) console.error(`docs-check: ${problem}`);
console.log(
  `docs-check: ${pages.length} pages, ${problems.length} problems; screenshots in test-artifacts/docs/`,
);
process.exit(problems.length === 0 ? 0 : 1);
