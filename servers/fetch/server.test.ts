/**
 * The fetch server against the official mcp-server-fetch (modelcontextprotocol/servers
 * src/fetch/src/mcp_server_fetch/server.py, commit 76d64c822f5125032f89eb71dbdb94e42b434821):
 * its tool and prompt lists, defaults, result texts, robots.txt handling and User-Agents, on
 * both eras, against a local site (so with --allow-private-network).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectServerConforms } from '../../src/testing/index.js';
import { ERAS, openEra, textOf, type EraClient } from '../../test/support/era-client.js';
import { startProxy, startWebSite, type WebSite } from '../../test/support/web-site.js';
import {
  createReferenceServer,
  FETCH_DESCRIPTION,
  FETCH_INPUT_SCHEMA,
  USER_AGENT_AUTONOMOUS,
  USER_AGENT_MANUAL,
} from './server.js';

const PARAGRAPH =
  'Readability keeps the main text of a page and drops its navigation, so the model reads what matters. '.repeat(
    4,
  );
const ARTICLE = `<!doctype html><html><head><title>Tides</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Tides</h1><p>${PARAGRAPH}</p><h2>Spring tides</h2><p>${PARAGRAPH}</p>
<ul><li>first</li><li>second</li></ul><p>Some <em>emphasis</em> and <strong>strength</strong>.</p></article>
<footer>Copyright</footer></body></html>`;

let site: WebSite;
beforeAll(async () => {
  site = await startWebSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: '# rules\nUser-agent: *\nDisallow: /private\n',
    },
    '/article': { body: ARTICLE },
    '/plain': { headers: { 'content-type': 'text/plain' }, body: 'abcdefghij' },
    '/private/page': { headers: { 'content-type': 'text/plain' }, body: 'secret' },
    '/moved': { status: 302, headers: { location: '/plain' } },
  });
});
afterAll(() => site.close());

describe.each(ERAS)('fetch server on the %s era', (era) => {
  let client: EraClient;
  beforeEach(async () => {
    client = await openEra(await createReferenceServer(['--allow-private-network'], {}), era);
  });
  afterEach(async () => {
    await client.close();
    expect(client.harness.violations).toEqual([]);
  });

  it('lists the official tool (schema as pydantic writes it, no annotations) and prompt', async () => {
    expect(await client.listTools()).toEqual([
      { name: 'fetch', description: FETCH_DESCRIPTION, inputSchema: FETCH_INPUT_SCHEMA },
    ]);
    const { prompts } = await client.request('prompts/list');
    expect(prompts).toEqual([
      {
        name: 'fetch',
        description: 'Fetch a URL and extract its contents as markdown',
        arguments: [{ name: 'url', description: 'URL to fetch', required: true }],
      },
    ]);
  });

  it('turns an HTML page into the Markdown of its article', async () => {
    const text = textOf(await client.call('fetch', { url: `${site.origin}/article`, max_length: 100_000 }));
    expect(text).toMatch(new RegExp(`^Contents of ${site.origin}/article:\\n`));
    expect(text).toContain('Spring tides\n');
    expect(text).toMatch(/## Spring tides/);
    expect(text).toContain('*   first');
    expect(text).toContain('Some *emphasis* and **strength**.');
    expect(text).not.toContain('Copyright');
  });

  it('gives raw content with the official prefix for raw=true and for other content types', async () => {
    const raw = textOf(
      await client.call('fetch', { url: `${site.origin}/article`, raw: true, max_length: 100_000 }),
    );
    expect(raw).toBe(
      `Content type text/html; charset=utf-8 cannot be simplified to markdown, but here is the raw content:\nContents of ${site.origin}/article:\n${ARTICLE}`,
    );
    expect(textOf(await client.call('fetch', { url: `${site.origin}/plain` }))).toBe(
      `Content type text/plain cannot be simplified to markdown, but here is the raw content:\nContents of ${site.origin}/plain:\nabcdefghij`,
    );
  });

  it('pages with max_length and start_index in the official words', async () => {
    const prefix = `Content type text/plain cannot be simplified to markdown, but here is the raw content:\nContents of ${site.origin}/plain:\n`;
    const call = async (args: Record<string, unknown>) =>
      textOf(await client.call('fetch', { url: `${site.origin}/plain`, ...args }));
    expect(await call({ max_length: 4 })).toBe(
      `${prefix}abcd\n\n<error>Content truncated. Call the fetch tool with a start_index of 4 to get more content.</error>`,
    );
    expect(await call({ max_length: 4, start_index: 8 })).toBe(`${prefix}ij`);
    expect(await call({ start_index: 10 })).toBe(`${prefix}<error>No more content available.</error>`);
    expect((await client.call('fetch', { url: `${site.origin}/plain`, max_length: 0 })).isError).toBe(true);
  });

  it('follows redirects and reports error statuses as the official server does', async () => {
    expect(textOf(await client.call('fetch', { url: `${site.origin}/moved` }))).toContain('abcdefghij');
    const missing = await client.call('fetch', { url: `${site.origin}/nowhere` });
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toBe(`Failed to fetch ${site.origin}/nowhere - status code 404`);
  });

  it('honours robots.txt for the tool with the autonomous User-Agent, and not for the prompt', async () => {
    const refused = await client.call('fetch', { url: `${site.origin}/private/page` });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      `The sites robots.txt (${site.origin}/robots.txt), specifies that autonomous fetching of this page is not allowed, <useragent>${USER_AGENT_AUTONOMOUS}</useragent>\n<url>${site.origin}/private/page</url><robots>\n# rules\nUser-agent: *\nDisallow: /private\n\n</robots>\nThe assistant must let the user know that it failed to view the page. The assistant may provide further guidance based on the above information.\nThe assistant can tell the user that they can try manually fetching the page by using the fetch prompt within their UI.`,
    );
    expect(site.requests.at(-1)).toMatchObject({ path: '/robots.txt' });
    expect(site.requests.at(-1)?.headers['user-agent']).toBe(USER_AGENT_AUTONOMOUS);
    const prompt = await client.request('prompts/get', {
      name: 'fetch',
      arguments: { url: `${site.origin}/private/page` },
    });
    expect(prompt).toMatchObject({
      description: `Contents of ${site.origin}/private/page`,
      messages: [{ role: 'user', content: { type: 'text', text: expect.stringMatching(/secret$/) } }],
    });
    expect(site.requests.at(-1)?.headers['user-agent']).toBe(USER_AGENT_MANUAL);
  });

  it('reports progress while a page downloads when asked', async () => {
    await client.call('fetch', { url: `${site.origin}/article` }, 'p1');
    const progress = client.harness.notifications.filter((n) => n.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.params).toMatchObject({
      progressToken: 'p1',
      progress: Buffer.byteLength(ARTICLE),
    });
  });
});

describe('fetch server arguments', () => {
  it('sends --user-agent and skips robots.txt with --ignore-robots-txt', async () => {
    const client = await openEra(
      await createReferenceServer(
        ['--allow-private-network', '--ignore-robots-txt', '--user-agent', 'Probe/1'],
        {},
      ),
      'modern',
    );
    try {
      expect(textOf(await client.call('fetch', { url: `${site.origin}/private/page` }))).toMatch(/secret$/);
      expect(site.requests.at(-1)).toMatchObject({
        path: '/private/page',
        headers: { 'user-agent': 'Probe/1' },
      });
    } finally {
      await client.close();
    }
  });

  it('goes through --proxy-url', async () => {
    const proxy = await startProxy();
    const client = await openEra(
      await createReferenceServer(['--allow-private-network', '--proxy-url', proxy.url], {}),
      'modern',
    );
    try {
      expect(textOf(await client.call('fetch', { url: `${site.origin}/plain` }))).toMatch(/abcdefghij$/);
      expect(proxy.tunnels).toContain(site.origin.replace('http://', ''));
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('refuses an unknown option and a bad proxy URL with INVALID_ARGUMENT and a usage line', async () => {
    for (const argv of [['--unknown'], ['--proxy-url', 'not a url'], ['http://example.com']])
      await expect(createReferenceServer(argv, {})).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('usage: mcpkit serve fetch'),
      });
  });

  it('is clean under mcpkit check on both eras', async () => {
    await expectServerConforms(await createReferenceServer(['--allow-private-network'], {}), {
      failOn: 'warning',
      calls: [{ tool: 'fetch', args: { url: `${site.origin}/plain` } }],
    });
  });
});
