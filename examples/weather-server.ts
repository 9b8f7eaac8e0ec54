/**
 * A small MCP server on stdio: one tool with a zod schema and structured output, a
 * resource, a resource template with completion, and a prompt. Serves modern and legacy
 * clients from the same definition.
 *
 * Run: npm run build && node dist/examples/weather-server.js   (then talk to it with
 *      `node dist/src/cli/main.js inspect -- node dist/examples/weather-server.js`)
 * In your project, import from 'mcpkit/server' and 'mcpkit/stdio' instead.
 */
import { z } from 'zod';
import { createServer } from '../src/server/index.js';
import { serveStdio } from '../src/integrations/stdio/index.js';

const CITIES = ['Paris', 'Lisbon', 'Oslo'];

const server = createServer({
  name: 'weather',
  version: '1.0.0',
  instructions: 'Use forecast for the weather of a city.',
  cache: { ttlMs: 60_000, cacheScope: 'public' },
});

server.tool(
  'forecast',
  {
    title: 'Forecast',
    description: 'Tomorrow’s forecast for a city',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
    annotations: { readOnlyHint: true },
  },
  async ({ city }, ctx) => {
    ctx.progress(0, { total: 1, message: 'asking the sky' });
    ctx.log('info', `forecast for ${city}`);
    const celsius = 18 + city.length;
    ctx.progress(1, { total: 1 });
    return {
      content: [{ type: 'text', text: `${city}: ${celsius} °C` }],
      structuredContent: { city, celsius },
    };
  },
);

server.resource('weather://cities', { mimeType: 'application/json', description: 'Known cities' }, (uri) => [
  { uri, mimeType: 'application/json', text: JSON.stringify(CITIES) },
]);

server.resourceTemplate(
  'weather://cities/{city}',
  { mimeType: 'text/plain', complete: { city: (typed) => CITIES.filter((c) => c.startsWith(typed)) } },
  (uri, { city }) => [{ uri, text: `${city ?? ''} is a lovely city.` }],
);

server.prompt(
  'packing-list',
  { description: 'What to pack for a trip', argsSchema: z.object({ city: z.string() }) },
  ({ city }) => [
    { role: 'user', content: { type: 'text', text: `What should I pack for ${city} tomorrow?` } },
  ],
);

void serveStdio(server);
