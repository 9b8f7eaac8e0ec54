/**
 * Serves the chart app over Streamable HTTP on 127.0.0.1 (port from argv, default random)
 * and prints its URL. Run: npm run build && node dist/examples/apps-chart/main.js [port]
 */
import { serve } from '../../src/integrations/node/index.js';
import { buildChartView } from './build.js';
import { createChartServer } from './server.js';

void buildChartView().then(async (html) => {
  const served = await serve(
    createChartServer(() => html),
    { port: Number(process.argv[2] ?? 0) },
  );
  process.stdout.write(`chart app: ${served.url}\n`);
});
