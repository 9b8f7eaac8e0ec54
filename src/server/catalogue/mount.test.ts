import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, type Client } from '../../client/index.js';
import { ERROR_TABLE } from '../../core/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { validateWire } from '../../testing/wire-tap.js';
import { until } from '../../../test/support/wait.js';
import { connect, createServer, type McpServer } from '../index.js';

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });

/** A child server with one of everything, and a way to make it misbehave. */
function weather(): McpServer {
  const child = createServer({ name: 'weather', version: '1' });
  child.tool(
    'forecast',
    {
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), high: z.number() }),
    },
    ({ city }) => ({ city, high: 21 }),
  );
  child.tool('boom', {}, () => {
    throw new Error('the child broke');
  });
  child.tool('bad', { outputSchema: z.object({ n: z.number() }) }, () => ({ n: 'not a number' }) as never);
  child.tool(
    'hang',
    {},
    (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'))),
  );
  child.tool('ask', {}, async (_a, ctx) => {
    ctx.progress(1, { total: 2 });
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Which unit?',
      requestedSchema: { type: 'object', properties: { unit: { type: 'string' } } },
    });
    ctx.progress(2, { total: 2 });
    return `unit ${String(answer.content?.unit)}`;
  });
  child.prompt(
    'brief',
    {
      argsSchema: z.object({ city: z.string() }),
      complete: { city: (v) => ['Paris', 'Perth'].filter((c) => c.startsWith(v)) },
    },
    ({ city }) => [text(`Weather in ${city}?`)],
  );
  child.resource('weather://stations', { name: 'stations' }, (uri) => [{ uri, text: 'A, B' }]);
  child.resourceTemplate('weather://city/{name}', { name: 'city' }, (uri, { name }) => [
    { uri, text: `city ${name}` },
  ]);
  return child;
}

async function open(server: McpServer, era: 'modern' | 'legacy'): Promise<Client> {
  const [a, b] = createLinkedPair();
  validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25');
  await connect(server, b);
  const client = createClient({
    name: 'c',
    version: '1',
    era,
    handlers: {
      elicitation: () => Promise.resolve({ action: 'accept' as const, content: { unit: 'celsius' } }),
    },
  });
  await client.connect(a);
  return client;
}

describe.each(['modern', 'legacy'] as const)('mount(prefix, server) (%s)', (era) => {
  it('serves the child under the prefix: tools, prompts, resources, templates and completions', async () => {
    const parent = createServer({ name: 'front', version: '1' });
    parent.tool('own', {}, () => 'mine');
    parent.mount('weather', weather());
    const client = await open(parent, era);
    const tools = (await client.listTools()).map((t) => t.name);
    expect(tools).toEqual([
      'own',
      'weather__forecast',
      'weather__boom',
      'weather__bad',
      'weather__hang',
      'weather__ask',
    ]);
    const forecast = await client.callTool('weather__forecast', { city: 'Oslo' });
    expect(forecast.structuredContent).toEqual(
      era === 'modern' ? { city: 'Oslo', high: 21 } : { city: 'Oslo', high: 21 },
    );
    const invalid = await client.callTool('weather__forecast', { city: 3 });
    expect(invalid.isError).toBe(true);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['weather__brief']);
    const brief = await client.getPrompt('weather__brief', { city: 'Oslo' });
    expect(brief.messages[0]?.content).toEqual({ type: 'text', text: 'Weather in Oslo?' });
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['weather+weather://stations']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'weather+weather://city/{name}',
    ]);
    expect((await client.readResource('weather+weather://stations')).contents).toEqual([
      { uri: 'weather://stations', text: 'A, B' },
    ]);
    const city = await client.readResource('weather+weather://city/Rome');
    expect(city.contents[0]).toEqual({ uri: 'weather://city/Rome', text: 'city Rome' });
    await expect(client.readResource('weather://stations')).rejects.toThrow(/Resource not found/);
    const done = await client.complete(
      { type: 'ref/prompt', name: 'weather__brief' },
      { name: 'city', value: 'P' },
    );
    expect(done.completion.values).toEqual(['Paris', 'Perth']);
    await client.close();
  });

  it('fails only the request of a child that throws, returns an invalid result or hangs', async () => {
    const parent = createServer({ name: 'front', version: '1' });
    parent.mount('w', weather());
    const client = await open(parent, era);
    const hung = new AbortController();
    const hanging = client.callTool('w__hang', {}, { signal: hung.signal });
    const thrown = await client.callTool('w__boom', {});
    expect(thrown).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('the child broke') }],
    });
    await expect(client.callTool('w__bad', {})).rejects.toMatchObject({
      code: ERROR_TABLE.InternalError.code,
    });
    expect((await client.callTool('w__forecast', { city: 'Lima' })).isError).toBeUndefined();
    hung.abort();
    await expect(hanging).rejects.toThrow();
    expect((await client.callTool('w__forecast', { city: 'Lima' })).content).toHaveLength(1);
    await client.close();
  });

  it("carries the child's ctx.elicit and progress through the mount", async () => {
    const parent = createServer({ name: 'front', version: '1' });
    parent.mount('w', weather());
    const client = await open(parent, era);
    const progress: number[] = [];
    const result = await client.callTool('w__ask', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'unit celsius' }]);
    if (era === 'legacy') expect(progress).toEqual([1, 2]);
    else expect(progress.at(-1)).toBe(2);
    await client.close();
  });

  it("announces the child's list changes and resource updates under the mount's names", async () => {
    const child = weather();
    const parent = createServer({ name: 'front', version: '1' });
    parent.mount('w', child);
    const client = await open(parent, era);
    const heard: { method: string; uri?: unknown }[] = [];
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['w+weather://stations'] });
    await sub.acknowledged;
    void (async () => {
      for await (const n of sub) heard.push({ method: n.method, uri: n.params?.uri });
    })();
    child.tool('later', {}, () => 'new');
    await until(() => heard.some((h) => h.method === 'notifications/tools/list_changed'));
    expect((await client.listTools()).map((t) => t.name)).toContain('w__later');
    child.notifyResourceUpdated('weather://stations');
    await until(() => heard.some((h) => h.method === 'notifications/resources/updated'));
    expect(heard.find((h) => h.method === 'notifications/resources/updated')?.uri).toBe(
      'w+weather://stations',
    );
    sub.close();
    await client.close();
  });
});

describe('mount(prefix, server) refusals', () => {
  it('refuses names that collide at mount time, and nothing is mounted', () => {
    const parent = createServer({ name: 'front', version: '1' });
    parent.tool('w__forecast', {}, () => 'taken');
    expect(() => parent.mount('w', weather())).toThrow(/tool 'w__forecast' is offered twice/);
    parent.mount('x', weather());
    expect(() => parent.mount('x', weather())).toThrow(/offered twice/);
    expect(() => parent.mount('', weather()).mount('', weather())).toThrow(/offered twice/);
  });

  it('refuses a bad prefix and a server mounted inside itself', () => {
    const parent = createServer({ name: 'front', version: '1' });
    expect(() => parent.mount('a+b', weather())).toThrow(/mount prefix/);
    const child = createServer({ name: 'child', version: '1' });
    parent.mount('c', child);
    expect(() => child.mount('p', parent)).toThrow(/inside itself/);
    expect(() => parent.mount('p', parent)).toThrow(/inside itself/);
  });
});
