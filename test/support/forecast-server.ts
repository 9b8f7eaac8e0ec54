/**
 * The everything server plus a `forecast` tool with structured output, in two versions for
 * contract tests: v2 makes one change of each kind the contract diff classifies (see
 * {@link V2_CHANGES}). Runnable over stdio: `node dist/test/support/forecast-server.js v1|v2`,
 * or over HTTP with `--http` (prints `listening URL` on stdout).
 */
import { fileURLToPath } from 'node:url';
import { serve } from '../../src/integrations/node/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';
import type { McpServer } from '../../src/server/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

/** What v2 changes, as `kind path` of the change diffContracts must report. */
export const V2_CHANGES = {
  breaking: [
    'tool-removed tools.echo',
    'argument-required tools.forecast.inputSchema.properties.country',
    'type-narrowed tools.forecast.inputSchema.properties.days',
    'schema-stricter tools.forecast.inputSchema.properties.days',
    'enum-value-removed tools.forecast.inputSchema.properties.units',
    'output-field-removed tools.forecast.outputSchema.properties.humidity',
  ],
  review: [
    'annotation-changed tools.forecast.annotations.openWorldHint',
    'argument-added tools.forecast.inputSchema.properties.lang',
    'description-changed tools.forecast.description',
  ],
  info: ['tool-added tools.alerts'],
} as const;

/** The everything server with `forecast` in version 1 or 2. */
export function forecastServer(version: 1 | 2): McpServer {
  const server = createEverythingServer();
  const v2 = version === 2;
  const properties: Record<string, unknown> = {
    city: { type: 'string', description: 'City name' },
    units: { type: 'string', enum: v2 ? ['metric', 'imperial'] : ['metric', 'imperial', 'kelvin'] },
    days: { type: v2 ? 'integer' : ['integer', 'string'], maximum: v2 ? 7 : 14 },
    ...(v2 ? { country: { type: 'string' }, lang: { type: 'string' } } : {}),
  };
  const output: Record<string, unknown> = {
    city: { type: 'string' },
    temperature: { type: 'number' },
    ...(v2 ? {} : { humidity: { type: 'number' } }),
  };
  server.tool(
    'forecast',
    {
      description: v2 ? 'Weather forecast for a city and country' : 'Weather forecast for a city',
      inputSchema: { type: 'object', properties, required: v2 ? ['city', 'country'] : ['city'] },
      outputSchema: { type: 'object', properties: output, required: Object.keys(output) },
      annotations: v2 ? { readOnlyHint: true, openWorldHint: true } : { readOnlyHint: true },
    },
    (args) => {
      const city = String((args as { city: unknown }).city);
      const structuredContent = v2 ? { city, temperature: 21.5 } : { city, temperature: 21.5, humidity: 40 };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  if (v2) {
    server.removeTool('echo');
    server.tool('alerts', { description: 'Weather alerts' }, () => 'none');
  }
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = forecastServer(process.argv.includes('v2') ? 2 : 1);
  if (process.argv.includes('--http'))
    void serve(server, { port: 0 }).then((served) => process.stdout.write(`listening ${served.url}\n`));
  else void serveStdio(server);
}
