/**
 * Builds the chart view into one self-contained HTML document (script and style inline),
 * as an app's own toolchain would: esbuild bundles view.ts with the ext-apps `App`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const STYLE =
  'body{font:14px sans-serif;margin:8px}.bar{background:#4a7;color:#fff;margin:2px 0;padding:0 4px}';

/** Bundles `examples/apps-chart/view.ts` (the source, not dist) and wraps it in the page. */
export async function buildChartView(): Promise<string> {
  // Beside this file when run from source; from dist/examples/apps-chart, back in the repository.
  const near = fileURLToPath(new URL('./view.ts', import.meta.url));
  const entry = existsSync(near)
    ? near
    : fileURLToPath(new URL('../../../examples/apps-chart/view.ts', import.meta.url));
  const out = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', minify: true });
  const script = (out.outputFiles[0]?.text ?? '').replace(/<\/script/gi, '<\\/script');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Chart</title><style>${STYLE}</style></head>` +
    `<body><h3 id="title">waiting for the tool</h3><div id="chart"></div>` +
    `<button id="refresh">Refresh</button> <button id="ask">Ask</button> <button id="remember">Remember</button>` +
    `<p id="status"></p><script type="module">${script}</script></body></html>`
  );
}
