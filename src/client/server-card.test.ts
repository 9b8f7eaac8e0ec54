/**
 * Reading a Server Card before connecting, against real loopback servers: a served card
 * validates and leads to a connection that agrees with it; If-None-Match gets 304; an
 * invalid, oversized or silent card is refused with its own error; drift is named.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { SERVER_CARD_SCHEMA_URL, type ServerCard } from '../core/server-card.js';
import {
  cardDrift,
  cardEndpoint,
  createClient,
  discoverServerCard,
  fetchServerCard,
  serverCardUrl,
  serverCardUrls,
  streamableHttp,
} from './index.js';

const open: Array<Served | Server> = [];
afterAll(async () => {
  for (const s of open)
    await ('url' in s ? s.close() : new Promise((r) => (s.closeAllConnections(), s.close(r))));
});

async function weather(): Promise<Served> {
  const server = createServer({ name: 'com.example/weather', version: '2.0.0', description: 'Forecasts.' });
  server.tool('forecast', () => 'sunny');
  const served = await serve(server, { port: 0, http: { serverCard: true } });
  open.push(served);
  return served;
}

/** A plain node server answering every request with `answer` (or never, when undefined). */
async function raw(answer: ((res: import('node:http').ServerResponse) => void) | undefined): Promise<string> {
  const server = createNodeServer((_req, res) => answer?.(res));
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/server-card`;
}

const minimal: ServerCard = {
  $schema: SERVER_CARD_SCHEMA_URL,
  name: 'a.b/c',
  version: '1',
  description: 'd',
};

describe('fetchServerCard', () => {
  it('fetches a served card, then connects where it points and finds no drift', async () => {
    const served = await weather();
    const fetched = await fetchServerCard(serverCardUrl(served.url));
    if (fetched.status !== 'ok') throw new Error('expected a card');
    expect(fetched.card.name).toBe('com.example/weather');
    const { url } = cardEndpoint(fetched.card);
    expect(url).toBe(served.url);
    const client = createClient({ name: 't', version: '1' });
    await client.connect(streamableHttp(url));
    const discovered = await client.discover();
    const live = { serverInfo: client.serverInfo, supportedVersions: discovered.supportedVersions };
    expect(cardDrift(fetched.card, live)).toEqual([]);
    await client.close();
  });

  it('sends the ETag it holds and reports not-modified on 304', async () => {
    const served = await weather();
    const first = await fetchServerCard(serverCardUrl(served.url));
    expect(first.etag).toMatch(/^"/);
    const again = await fetchServerCard(serverCardUrl(served.url), { etag: first.etag! });
    expect(again).toEqual({ status: 'not-modified', url: first.url, etag: first.etag });
  });

  it('refuses a card that does not validate, naming the problems', async () => {
    const url = await raw((res) =>
      res.end(JSON.stringify({ name: 'no-slash', version: '1', description: 'd' })),
    );
    const failure = fetchServerCard(url);
    await expect(failure).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    await expect(failure).rejects.toThrow(/\$schema|name/);
    const notJson = await raw((res) => res.end('<html>'));
    await expect(fetchServerCard(notJson)).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    const deep = await raw((res) => res.end(`{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`));
    await expect(fetchServerCard(deep)).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringMatching(/nested deeper than 256 levels/),
    });
  });

  it('bounds the size and the wait', async () => {
    const big = await raw((res) =>
      res.end(JSON.stringify({ ...minimal, _meta: { pad: 'x'.repeat(70_000) } })),
    );
    await expect(fetchServerCard(big)).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    await expect(fetchServerCard(big, { maxBytes: 200_000 })).resolves.toMatchObject({ status: 'ok' });
    const silent = await raw(undefined);
    await expect(fetchServerCard(silent, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const missing = await raw((res) => res.writeHead(404).end());
    await expect(fetchServerCard(missing)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(fetchServerCard('file:///etc/passwd')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

/** A plain node server that serves `card` at `path` alone and 404 elsewhere; its origin. */
async function cardOnlyAt(
  path: string,
  card: ServerCard = minimal,
): Promise<{ origin: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createNodeServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === path)
      res.writeHead(200, { 'content-type': 'application/mcp-server-card+json' }).end(JSON.stringify(card));
    else res.writeHead(404).end();
  });
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe('discoverServerCard: both card locations', () => {
  it('lists <endpoint>/server-card first, then the well-known path on the origin', () => {
    expect(serverCardUrls('https://a.example/x/mcp?q=1')).toEqual([
      'https://a.example/x/mcp/server-card',
      'https://a.example/.well-known/mcp/server-card.json',
    ]);
  });

  it('finds a card served only at /.well-known/mcp/server-card.json', async () => {
    const { origin, asked } = await cardOnlyAt('/.well-known/mcp/server-card.json');
    const found = await discoverServerCard(`${origin}/mcp`);
    expect(found).toMatchObject({
      status: 'ok',
      url: `${origin}/.well-known/mcp/server-card.json`,
      card: minimal,
    });
    expect(asked).toEqual(['/mcp/server-card', '/.well-known/mcp/server-card.json']);
  });

  it('finds a card served only at <endpoint>/server-card without asking further', async () => {
    const { origin, asked } = await cardOnlyAt('/mcp/server-card');
    const found = await discoverServerCard(`${origin}/mcp`);
    expect(found).toMatchObject({ status: 'ok', url: `${origin}/mcp/server-card` });
    expect(asked).toEqual(['/mcp/server-card']);
  });

  it('names both locations and their statuses when neither serves a card', async () => {
    const { origin } = await cardOnlyAt('/elsewhere');
    await expect(discoverServerCard(`${origin}/mcp`)).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringMatching(
        /mcp\/server-card: HTTP 404.*well-known\/mcp\/server-card\.json: HTTP 404/,
      ),
    });
  });

  it("finds mcpkit's own served card at both locations", async () => {
    const served = await weather();
    const origin = new URL(served.url).origin;
    const wellKnown = await fetchServerCard(`${origin}/.well-known/mcp/server-card.json`);
    const endpoint = await fetchServerCard(serverCardUrl(served.url));
    if (wellKnown.status !== 'ok' || endpoint.status !== 'ok') throw new Error('expected cards');
    expect(wellKnown.card).toEqual(endpoint.card);
    expect(cardEndpoint(wellKnown.card).url).toBe(served.url);
  });
});

describe('cardEndpoint and cardDrift', () => {
  const templated: ServerCard = {
    ...minimal,
    remotes: [
      { type: 'sse', url: 'https://old.example.com/sse' },
      {
        type: 'streamable-http',
        url: 'https://{tenant}.example.com/{region}/mcp',
        variables: { tenant: { isRequired: true }, region: { default: 'eu' } },
      },
    ],
  };

  it('fills URL variables from the values given, else their defaults, and refuses a missing one', () => {
    expect(cardEndpoint(templated, { values: { tenant: 'acme' } }).url).toBe(
      'https://acme.example.com/eu/mcp',
    );
    expect(cardEndpoint(templated, { type: 'sse' }).url).toBe('https://old.example.com/sse');
    expect(() => cardEndpoint(templated)).toThrow(/\{tenant\}/);
    expect(() => cardEndpoint(minimal)).toThrow(/no streamable-http remote/);
  });

  it('names each field where the card and the live server disagree', () => {
    const card: ServerCard = {
      ...minimal,
      title: 'Old',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://x/mcp',
          supportedProtocolVersions: ['2024-11-05', '2026-07-28'],
        },
      ],
    };
    const live = {
      serverInfo: { name: 'c', version: '2', title: 'New' },
      supportedVersions: ['2026-07-28', '2025-11-25'],
    };
    const drift = cardDrift(card, live);
    expect(drift.map((d) => d.field)).toEqual(['version', 'title', 'supportedProtocolVersions']);
    expect(drift[2]?.message).toMatch(/claims 2024-11-05.*omits 2025-11-25/);
    expect(cardDrift(card, { serverInfo: { name: 'other', version: '1' } }).map((d) => d.field)).toEqual([
      'name',
    ]);
  });
});
