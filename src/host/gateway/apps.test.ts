/**
 * App-only tools (`_meta.ui.visibility: ["app"]`) through the host and the gateway, both
 * eras: a model-facing list never holds one (`host.modelTools()`, the gateway's tool search,
 * the front `tools/list` of a client without the UI extension), a front client with the UI
 * extension lists it under its backend's view URI and calls it, and concurrent clients of
 * both kinds never see each other's list. Source: ext-apps specification "Visibility".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import { toolUiOf, uiClientExtension } from '../../core/apps.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { appResource, appTool, createServer } from '../../server/index.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

function backend(name: string) {
  const server = createServer({ name, version: '1' });
  const view = `ui://${name}/view.html`;
  appResource(server, view, { html: `<!doctype html><p>${name}</p>` });
  appTool(server, `${name}_show`, { resourceUri: view, handler: () => `${name} shown` });
  appTool(server, `${name}_poll`, {
    resourceUri: view,
    visibility: ['app'],
    handler: () => `${name} polled`,
  });
  // Both backends have an app-only `refresh`: only one can keep the name in front.
  appTool(server, 'refresh', { resourceUri: view, visibility: ['app'], handler: () => `${name} refreshed` });
  return server;
}

let a: Served;
let b: Served;
let host: Host;
let gateway: Gateway;
let searching: Gateway;
let front: Served;
let searchFront: Served;
const clients: Client[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([serve(backend('a'), { port: 0 }), serve(backend('b'), { port: 0 })]);
  host = createHost({ servers: { a: { url: a.url }, b: { url: b.url } } });
  await host.start();
  gateway = createGateway(host);
  searching = createGateway(host, { toolSearch: true });
  [front, searchFront] = await Promise.all([
    serve(gateway.server, { port: 0 }),
    serve(searching.server, { port: 0 }),
  ]);
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all([front?.close(), searchFront?.close()]);
  gateway?.close();
  searching?.close();
  await host?.close();
  await Promise.all([a?.close(), b?.close()]);
});

async function frontClient(era: 'modern' | 'legacy', ui: boolean, url = front.url): Promise<Client> {
  const client = createClient({
    name: ui ? 'app-host' : 'text-host',
    version: '1',
    era,
    ...(ui ? { extensions: [uiClientExtension()] } : {}),
  });
  clients.push(client);
  await client.connect(streamableHttp(url));
  return client;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('the host', () => {
  it('offers a model no app-only tool, and still calls one for its app', async () => {
    const all = host.tools().map((t) => t.name);
    expect(all).toEqual(expect.arrayContaining(['a_poll', 'b_poll', 'refresh', 'a__a_show']));
    expect(
      host
        .modelTools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['a__a_show', 'b__b_show']);
    expect(textOf(await host.callTool('b_poll', {}))).toBe('b polled');
  });

  it("keeps a colliding app-only name as the first server's, its view URI naming that server", () => {
    const refresh = host.tools().find((t) => t.name === 'refresh');
    expect(refresh?.server).toBe('a');
    expect(toolUiOf(refresh!.definition).resourceUri).toBe('ui://a/a/view.html');
    const issues = host.status().find((s) => s.name === 'b')?.issues ?? [];
    expect(issues.join('\n')).toMatch(/tool 'refresh'.*left out/);
  });
});

describe.each(['modern', 'legacy'] as const)('the gateway front, %s', (era) => {
  it('lists and calls app-only tools for a client with the UI extension only, concurrently', async () => {
    const [ui, plain, ui2, plain2] = await Promise.all([
      frontClient(era, true),
      frontClient(era, false),
      frontClient(era, true),
      frontClient(era, false),
    ]);
    const rounds = Array.from({ length: 8 }, () =>
      Promise.all([
        ui!.listTools(),
        plain!.listTools(),
        ui2!.callTool('b_poll', {}),
        plain2!.callTool('a_poll', {}).then(
          () => 'called',
          (e: { code?: number; message?: string }) => `${e.code} ${e.message}`,
        ),
      ]),
    );
    for (const [withUi, without, called, refused] of await Promise.all(rounds)) {
      expect(withUi.map((t) => t.name).sort()).toEqual([
        'a__a_show',
        'a_poll',
        'b__b_show',
        'b_poll',
        'refresh',
      ]);
      expect(without.map((t) => t.name).sort()).toEqual(['a__a_show', 'b__b_show']);
      expect(toolUiOf(withUi.find((t) => t.name === 'b_poll')!).resourceUri).toBe('ui://b/b/view.html');
      expect(textOf(called)).toBe('b polled');
      expect(refused).toMatch(/^-32602 .*only from its app/);
    }
  });

  it("names each app-only tool's server in its view URI, so a front host refuses it to another server's app", async () => {
    const tools = await (await frontClient(era, true)).listTools();
    const authority = (name: string) =>
      /^ui:\/\/([^/]+)\//.exec(toolUiOf(tools.find((t) => t.name === name)!).resourceUri ?? '')?.[1];
    expect([authority('a_poll'), authority('refresh'), authority('b_poll')]).toEqual(['a', 'a', 'b']);
  });

  it('keeps app-only tools out of the tool search and serves them to app hosts beside it', async () => {
    const plain = await frontClient(era, false, searchFront.url);
    expect((await plain.listTools()).map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const found = await plain.callTool('search_tools', { query: 'poll refresh show', limit: 10 });
    const names = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names.sort()).toEqual(['a__a_show', 'b__b_show']);
    const refused = await plain.callTool('call_tool', { name: 'a_poll', arguments: {} });
    expect(refused.isError).toBe(true);
    const ui = await frontClient(era, true, searchFront.url);
    expect((await ui.listTools()).map((t) => t.name).sort()).toEqual([
      'a_poll',
      'b_poll',
      'call_tool',
      'refresh',
      'search_tools',
    ]);
    expect(textOf(await ui.callTool('a_poll', {}))).toBe('a polled');
  });
});
