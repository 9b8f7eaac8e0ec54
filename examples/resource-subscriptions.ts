/**
 * A file watched only while someone is subscribed: the server's `resourceSubscriptions`
 * hooks start an `fs.watch` when the first client subscribes to the file's URI (legacy
 * `resources/subscribe` or a modern listen's `resourceSubscriptions`) and stop it when the
 * last one leaves. Each change of the file becomes `notifications/resources/updated`.
 *
 * Try it: npm run build && node dist/examples/resource-subscriptions.js /tmp/notes.txt
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createServer } from '../src/server/index.js';
import { serveStdio } from '../src/integrations/stdio/index.js';

const path = process.argv[2] ?? '/tmp/notes.txt';
const uri = pathToFileURL(path).href;
const watchers = new Map<string, FSWatcher>();

const server = createServer({
  name: 'watched-file',
  version: '1.0.0',
  resourceSubscriptions: {
    // Only our file can be subscribed to; anything else is refused.
    subscribe: (wanted) => {
      if (wanted !== uri) return false;
      watchers.set(
        wanted,
        watch(path, () => server.notifyResourceUpdated(wanted)),
      );
      return true;
    },
    unsubscribe: (gone) => {
      watchers.get(gone)?.close();
      watchers.delete(gone);
    },
  },
});

server.resource(uri, { name: 'notes', mimeType: 'text/plain' }, async () => [
  { uri, text: await readFile(path, 'utf8').catch(() => '') },
]);

process.stderr.write(`watching ${path} while subscribed (${uri})\n`);
void serveStdio(server);
