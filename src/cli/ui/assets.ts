/**
 * Serves the inspector web app's files from `dist/ui` (built by Vite with `npm run build`).
 * Only files inside that folder; everything the page needs is there, nothing is fetched
 * from the network. Unknown paths get the app's index.html.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { packagePath } from '../package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * The page may load only its own files (inline images and audio come as data: URLs) and
 * frame only the sandbox origin of the Apps view.
 */
const cspOf = (sandbox: string) =>
  "default-src 'self'; img-src 'self' data:; media-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
  `connect-src 'self'; frame-src ${sandbox || "'none'"}; frame-ancestors 'none'`;

/**
 * Writes the file at `pathname` under the built app's folder `dist/ui` (or index.html), or
 * 404; `sandbox` is the origin the page may frame.
 */
export async function serveAsset(pathname: string, res: ServerResponse, sandbox = ''): Promise<void> {
  let relative: string;
  try {
    relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  } catch {
    return void res.writeHead(400).end();
  }
  const ui = packagePath('dist', 'ui');
  const file = join(ui, relative === '' || !extname(relative) ? 'index.html' : relative);
  if (!file.startsWith(ui + sep)) return void res.writeHead(404).end();
  try {
    const body = await readFile(file);
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': cspOf(sandbox),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      })
      .end(body);
  } catch {
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(`not found (built app missing? run \`npm run build\`)`);
  }
}
