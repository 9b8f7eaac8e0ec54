/**
 * Composing servers in one process: a weather server and a notes server mounted on one
 * front server under prefixes, a tool reshaped for a model, and a catalogue that depends on
 * who is calling. Prints what two clients see and what their calls return, then exits.
 *
 * Run: npm run build && node dist/examples/composition.js
 * In your project, import from 'mcpkit/server', 'mcpkit/client' and 'mcpkit/testing' instead.
 */
import { z } from 'zod';
import { createClient } from '../src/client/index.js';
import { connect, createServer, transformTool, visibleTo } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';

const weather = createServer({ name: 'weather', version: '1.0.0' });
weather.tool(
  'forecast',
  {
    description: 'Forecast for a city.',
    inputSchema: z.object({ city: z.string(), units: z.enum(['metric', 'imperial']) }),
    outputSchema: z.object({ city: z.string(), high: z.number(), units: z.string() }),
  },
  ({ city, units }) => ({ city, high: units === 'metric' ? 21 : 70, units }),
);

const notes = createServer({ name: 'notes', version: '1.0.0' });
notes.tool('add', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => `added: ${text}`);
notes.tool('wipe', { tags: ['admin'] }, () => 'all notes wiped');
notes.resource('notes://today', { name: 'today' }, (uri) => [{ uri, text: 'buy milk' }]);

const front = createServer({ name: 'front', version: '1.0.0' })
  .mount('weather', weather)
  .mount('notes', notes)
  .transform(
    // The model sees `forecast(city)`: units are always metric.
    transformTool('weather__forecast', {
      name: 'forecast',
      description: 'Tomorrow’s high for a city, in °C.',
      arguments: { units: { value: 'metric' } },
    }),
    // Admin tools only for the admin console.
    visibleTo(
      (entry, caller) => !entry.tags.includes('admin') || caller.clientInfo?.name === 'admin-console',
    ),
  );

async function look(clientName: string): Promise<void> {
  const [clientSide, serverSide] = createLinkedPair();
  await connect(front, serverSide);
  const client = createClient({ name: clientName, version: '1.0.0' });
  await client.connect(clientSide);
  const tools = (await client.listTools()).map((t) => t.name);
  console.log(`${clientName} sees: ${tools.join(', ')}`);
  const forecast = await client.callTool('forecast', { city: 'Lisbon' });
  console.log(`${clientName} forecast:`, JSON.stringify(forecast.structuredContent));
  const today = await client.readResource('notes+notes://today');
  console.log(`${clientName} reads notes+notes://today:`, JSON.stringify(today.contents));
  await client.close();
}

void look('model-app').then(() => look('admin-console'));
