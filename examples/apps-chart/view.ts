/**
 * The chart view: the official ext-apps `App` talking to the host over postMessage. It
 * draws the tool's result, and its Refresh button calls the app-only `chart_refresh`
 * through the host. Bundled into one HTML file by build.ts.
 */
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';

interface Chart {
  series: string;
  round: number;
  points: number[];
}

const app = new App({ name: 'chart-view', version: '1.0.0' });
let current: Chart | undefined;

function draw(chart: Chart): void {
  current = chart;
  const root = document.getElementById('chart');
  if (!root) return;
  root.replaceChildren(
    ...chart.points.map((p) => {
      const bar = document.createElement('div');
      bar.className = 'bar';
      bar.style.width = `${p * 10}px`;
      bar.textContent = String(p);
      return bar;
    }),
  );
  const title = document.getElementById('title');
  if (title) title.textContent = `${chart.series} · round ${chart.round}`;
}

const status = (text: string) => {
  const el = document.getElementById('status');
  if (el) el.textContent = text;
};

app.ontoolresult = (result) => draw(result.structuredContent as unknown as Chart);

document.getElementById('refresh')?.addEventListener('click', () => {
  if (!current) return;
  const args = { series: current.series, round: current.round };
  app.callServerTool({ name: 'chart_refresh', arguments: args }).then(
    (result) => draw(result.structuredContent as unknown as Chart),
    (error: unknown) => status(`refresh failed: ${String(error)}`),
  );
});

document.getElementById('ask')?.addEventListener('click', () => {
  const text = `Explain the ${current?.series ?? ''} chart`;
  app.sendMessage({ role: 'user', content: [{ type: 'text', text }] }).then(
    () => status('message sent'),
    (error: unknown) => status(`message failed: ${String(error)}`),
  );
});

document.getElementById('remember')?.addEventListener('click', () => {
  const text = `The user looked at ${current?.series ?? ''} round ${current?.round ?? 0}`;
  app.updateModelContext({ content: [{ type: 'text', text }] }).then(
    () => status('context updated'),
    (error: unknown) => status(`context failed: ${String(error)}`),
  );
});

app.connect().then(
  () => status('connected'),
  (error: unknown) => status(`connect failed: ${String(error)}`),
);
