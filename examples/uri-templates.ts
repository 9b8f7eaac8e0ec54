/**
 * Resource templates are RFC 6570 URI templates: this server offers notes by id (with a
 * non-ASCII literal), files by path (`{+path}` keeps the slashes) and a search with
 * optional query parameters (`{?term,limit}`). Clients may send the URI as expansion
 * produces it (`notes://caf%C3%A9/1`) or raw (`notes://café/1`); both match, and the
 * handler gets the variables decoded. `compileUriTemplate` expands templates too.
 *
 * Try it: npm run build && node dist/src/cli/main.js read 'notes://caf%C3%A9/7' -- node dist/examples/uri-templates.js
 */
import { compileUriTemplate, createServer } from '../src/server/index.js';
import { serveStdio } from '../src/integrations/stdio/index.js';

const server = createServer({ name: 'templates', version: '1.0.0' });

server.resourceTemplate('notes://café/{id}', { mimeType: 'text/plain' }, (uri, { id }) => [
  { uri, text: `note ${id}` },
]);
server.resourceTemplate('files:///{+path}', { mimeType: 'text/plain' }, (uri, { path }) => [
  { uri, text: `the file at /${path}` },
]);
server.resourceTemplate('search://notes{?term,limit}', {}, (uri, { term = '', limit = '10' }) => [
  { uri, text: `up to ${limit} notes about ${JSON.stringify(term)}` },
]);

// Expansion, e.g. to advertise a concrete link: search://notes?term=caf%C3%A9%20au%20lait&limit=3
const link = compileUriTemplate('search://notes{?term,limit}').expand({
  term: 'café au lait',
  limit: 3,
});

process.stderr.write(`templates example ready; try ${link}\n`);
void serveStdio(server);
