/**
 * The resource fixtures: a static text, a static binary, a watched text resource and a
 * template. Reading any other URI falls through to the SDK's not-found error.
 */
import type { McpServer } from '../../src/server/index.js';
import { PNG_BASE64 } from './media.js';

/** Ids the template's `{id}` variable completes to (`completion/complete` with `ref/resource`). */
const TEMPLATE_IDS = ['1', '2', '3', '42', '420'];

/** The text of `test://static-text`. */
export const STATIC_TEXT = 'This is the content of the static text resource.';

/** Registers the resource fixtures. */
export function registerResources(server: McpServer): void {
  server.resource(
    'test://static-text',
    {
      name: 'static-text',
      title: 'Static text',
      description: 'A static text resource',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: STATIC_TEXT }],
  );
  server.resource(
    'test://static-binary',
    { name: 'static-binary', title: 'Static binary', description: 'A 1×1 PNG image', mimeType: 'image/png' },
    (uri) => [{ uri, mimeType: 'image/png', blob: PNG_BASE64 }],
  );
  server.resource(
    'test://watched-resource',
    {
      name: 'watched-resource',
      title: 'Watched resource',
      description: 'A text resource clients may subscribe to',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }],
  );
  server.resourceTemplate(
    'test://template/{id}/data',
    {
      name: 'template-data',
      title: 'Data by id',
      description: 'JSON data for the given id',
      mimeType: 'application/json',
      complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
    },
    (uri, { id }) => [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
  );
}
