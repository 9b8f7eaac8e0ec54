/**
 * MCP Apps on the server, both eras: a linked tool lists `_meta.ui` (and the deprecated flat
 * key), its `ui://` resource reads as `text/html;profile=mcp-app` with `_meta.ui` on the list
 * entry and the content, and a client that did not negotiate the UI extension gets the text
 * fallback while one that did gets the result as the handler wrote it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../client/index.js';
import { LocalError } from '../core/index.js';
import { APP_MIME_TYPE, uiClientExtension } from '../core/apps.js';
import { createLinkedPair } from '../testing/index.js';
import { validateWire } from '../testing/wire-tap.js';
import { appResource, appTool, connect, createServer, serveApps } from './index.js';

const VIEW = 'ui://demo/view.html';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function server() {
  const s = createServer({ name: 'apps', version: '1' });
  appResource(s, VIEW, {
    html: () => '<!doctype html><p>view</p>',
    csp: { connectDomains: ['https://api.example.com'] },
    prefersBorder: false,
  });
  appTool(s, 'show', {
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    resourceUri: VIEW,
    fallback: (r) => `as text: ${JSON.stringify(r.structuredContent)}`,
    handler: (args) => ({
      content: [{ type: 'text' as const, text: 'see the view' }],
      structuredContent: args,
    }),
  });
  appTool(s, 'refresh', { resourceUri: VIEW, visibility: ['app'], handler: () => 'refreshed' });
  return s;
}

async function client(era: 'modern' | 'legacy', ui: boolean, served = server()): Promise<Client> {
  const [a, b] = createLinkedPair();
  await connect(served, b);
  const c = createClient({
    name: 'host',
    version: '1',
    era,
    ...(ui ? { extensions: [uiClientExtension()] } : {}),
  });
  clients.push(c);
  await c.connect(validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25', []));
  return c;
}

describe.each(['modern', 'legacy'] as const)('MCP Apps server helpers, %s', (era) => {
  it('lists the tool with _meta.ui and the deprecated flat key', async () => {
    const tools = await (await client(era, true)).listTools();
    const show = tools.find((t) => t.name === 'show');
    expect(show?._meta).toEqual({ ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW });
    const refresh = tools.find((t) => t.name === 'refresh');
    expect(refresh?._meta?.ui).toEqual({ resourceUri: VIEW, visibility: ['app'] });
  });

  it('serves the ui:// resource with its MIME type and _meta.ui on the entry and the content', async () => {
    const c = await client(era, true);
    const listed = (await c.listResources()).find((r) => r.uri === VIEW);
    const ui = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false };
    expect(listed).toMatchObject({ mimeType: APP_MIME_TYPE, _meta: { ui } });
    const read = await c.readResource(VIEW);
    expect(read.contents[0]).toMatchObject({ uri: VIEW, mimeType: APP_MIME_TYPE, _meta: { ui } });
    expect((read.contents[0] as { text: string }).text).toContain('<p>view</p>');
  });

  it('gives a host with the UI extension the result as written, one without it the text fallback', async () => {
    const withUi = await (await client(era, true)).callTool('show', { n: 1 });
    expect(withUi.content).toEqual([{ type: 'text', text: 'see the view' }]);
    const without = await (await client(era, false)).callTool('show', { n: 2 });
    expect(without.content).toEqual([{ type: 'text', text: 'as text: {"n":2}' }]);
    expect(without.structuredContent).toEqual({ n: 2 });
  });

  it('declares the UI extension and refuses an app-only tool to a host without it (its model is calling)', async () => {
    const withUi = await client(era, true);
    if (era === 'modern') await withUi.discover();
    expect(withUi.serverCapabilities?.extensions).toHaveProperty(['io.modelcontextprotocol/ui']);
    expect((await withUi.callTool('refresh', {})).content).toEqual([{ type: 'text', text: 'refreshed' }]);
    await expect((await client(era, false)).callTool('refresh', {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/only from its app/),
    });
  });
});

describe('MCP Apps definitions', () => {
  it('refuses a resource or tool URI that is not ui://, and an empty or unknown visibility', () => {
    const s = createServer({ name: 'x', version: '1' });
    const html = '<!doctype html>';
    expect(() => appResource(s, 'https://x/view', { html })).toThrow(LocalError);
    expect(() => appTool(s, 't', { resourceUri: 'file:///v', handler: () => '' })).toThrow(/ui:\/\//);
    expect(() => appTool(s, 't', { resourceUri: VIEW, visibility: [], handler: () => '' })).toThrow(
      /visibility/,
    );
    expect(() =>
      appTool(s, 't', { resourceUri: VIEW, visibility: ['agent' as never], handler: () => '' }),
    ).toThrow(/visibility/);
  });
});

describe.each(['modern', 'legacy'] as const)('app-only tools and the model, %s', (era) => {
  it('leaves app-only tools out of the tools/list of a host without the UI extension only', async () => {
    const tools = async (ui: boolean) => (await (await client(era, ui)).listTools()).map((t) => t.name);
    expect(await tools(true)).toEqual(['show', 'refresh']);
    expect(await tools(false)).toEqual(['show']);
  });

  it('answers concurrent hosts of one server, with and without UI, each with its own list and calls', async () => {
    const shared = server();
    const [ui, plain, ui2, plain2] = await Promise.all([
      client(era, true, shared),
      client(era, false, shared),
      client(era, true, shared),
      client(era, false, shared),
    ]);
    const rounds = Array.from({ length: 10 }, () =>
      Promise.all([
        ui!.listTools(),
        plain!.listTools(),
        ui2!.callTool('refresh', {}),
        plain2!.callTool('refresh', {}).then(
          () => 'called',
          (e: { code?: number }) => e.code,
        ),
      ]),
    );
    for (const [withUi, without, called, refused] of await Promise.all(rounds)) {
      expect(withUi.map((t) => t.name)).toEqual(['show', 'refresh']);
      expect(without.map((t) => t.name)).toEqual(['show']);
      expect(called.content).toEqual([{ type: 'text', text: 'refreshed' }]);
      expect(refused).toBe(-32602);
    }
  });

  it('hides an app-only tool however it was registered or mounted, once serveApps serves the extension', async () => {
    const inner = createServer({ name: 'inner', version: '1' });
    const meta = { ui: { resourceUri: VIEW, visibility: ['app'] } };
    inner.tool('poll', { _meta: meta }, () => 'polled');
    const outer = serveApps(createServer({ name: 'outer', version: '1' }));
    outer.tool('hand_made', { _meta: meta }, () => 'made');
    outer.tool('plain', () => 'plain');
    outer.mount('inner', inner);
    const names = async (ui: boolean) =>
      (await (await client(era, ui, outer)).listTools()).map((t) => t.name).sort();
    expect(await names(true)).toEqual(['hand_made', 'inner__poll', 'plain']);
    expect(await names(false)).toEqual(['plain']);
    const plain = await client(era, false, outer);
    await expect(plain.callTool('inner__poll', {})).rejects.toMatchObject({ code: -32602 });
    await expect(plain.callTool('hand_made', {})).rejects.toMatchObject({
      message: expect.stringMatching(/only from its app/),
    });
    const withUi = await client(era, true, outer);
    expect((await withUi.callTool('inner__poll', {})).content).toEqual([{ type: 'text', text: 'polled' }]);
  });
});
