/**
 * Keys chosen by the peer or by a schema arrive as ordinary own keys on the client and host
 * side: MRTR `inputRequests` (answered under every key), elicitation defaults, task answers
 * as the store records them, `mcpServers` names with their `env` and `headers`,
 * `WWW-Authenticate` parameters and URI-template expansion. Fed `__proto__`, `constructor`, …
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Params } from '../../src/core/jsonrpc.js';
import { addInputRequest, applyResponses, type TaskState } from '../../src/core/tasks.js';
import { parseChallenges } from '../../src/auth/client/challenge.js';
import { applyElicitationDefaults, type ClientHandlers } from '../../src/client/index.js';
import { resolveServers } from '../../src/host/config.js';
import { compileUriTemplate } from '../../src/server/index.js';
import { connectFake, modern } from '../support/client-harness.js';
import { fuzzRuns } from '../support/fuzz.js';
import { expectOwn, own, peerKey, tokenKey } from '../support/keys.js';

const runs = fuzzRuns(0.3);
const handlers: ClientHandlers = {
  elicitation: async () => ({ action: 'accept', content: { answered: true } }),
  roots: async () => ({ roots: [] }),
};

/** A modern server whose tools/call asks for input under `keys`, then echoes the answers. */
async function askingFake(keys: readonly string[]) {
  const inputRequests = Object.fromEntries(
    keys.map((k) => [
      k,
      { method: 'elicitation/create', params: { message: k, requestedSchema: { type: 'object' } } },
    ]),
  );
  const fake = await connectFake(
    modern({
      'tools/call': (params) =>
        params.inputResponses === undefined
          ? { resultType: 'input_required', inputRequests, requestState: 's' }
          : {
              resultType: 'complete',
              content: [{ type: 'text', text: Object.keys(params.inputResponses as object).join() }],
            },
    }),
    { era: 'modern', handlers },
  );
  return fake;
}

describe('the client answers every input request key', () => {
  it('answers the "a" and "__proto__" requests of one input_required (regression)', async () => {
    const fake = await askingFake(['a', '__proto__']);
    const result = await fake.client.request('tools/call', { name: 't' });
    expect(result.content).toEqual([{ type: 'text', text: 'a,__proto__' }]);
    const retry = fake.received.at(-1)?.params as Params;
    expectOwn(retry.inputResponses, '__proto__', { action: 'accept', content: { answered: true } });
    expectOwn(retry.inputResponses, 'a');
  });

  it('answers any two keys, each as an own key of inputResponses', async () => {
    await fc.assert(
      fc.asyncProperty(peerKey, peerKey, async (first, second) => {
        fc.pre(first !== second);
        const fake = await askingFake([first, second]);
        await fake.client.request('tools/call', { name: 't' });
        const retry = fake.received.at(-1)?.params as Params;
        expectOwn(retry.inputResponses, first);
        expectOwn(retry.inputResponses, second);
        await fake.client.close();
      }),
      fuzzRuns(0.15),
    );
  });

  it('refuses an input request for a method named like a built-in, clearly', async () => {
    const fake = await connectFake(
      modern({
        'tools/call': () => ({
          resultType: 'input_required',
          inputRequests: { a: { method: 'constructor', params: {} } },
        }),
      }),
      { era: 'modern', handlers },
    );
    await expect(fake.client.request('tools/call', { name: 't' })).rejects.toThrow(
      'asks for constructor, which is not an input request method',
    );
  });
});

describe('own keys of schemas and stored answers', () => {
  it('fills elicitation defaults under any property name', () => {
    fc.assert(
      fc.property(peerKey, (key) => {
        const schema = { type: 'object', properties: own(key, { type: 'string', default: 'd' }) };
        expectOwn(applyElicitationDefaults(schema, {}), key, 'd');
        expectOwn(applyElicitationDefaults(schema, own(key, 'given')), key, 'given');
      }),
      runs,
    );
  });

  it('records task answers under any key', () => {
    const now = new Date();
    const task: TaskState = {
      taskId: 't',
      status: 'working',
      createdAt: now.toISOString(),
      lastUpdatedAt: now.toISOString(),
      ttlMs: null,
      internal: { answers: {} },
    } as TaskState;
    fc.assert(
      fc.property(peerKey, (key) => {
        const request = { method: 'roots/list', params: {} } as never;
        const asked = addInputRequest(task, { key, request }, now)!;
        expectOwn(asked.inputRequests, key);
        const answered = applyResponses(asked, own(key, { roots: [] }), now)!;
        expectOwn(answered.internal.answers, key, { roots: [] });
        expect(answered.status).toBe('working');
        expect(addInputRequest(answered, { key, request }, now)).toBeUndefined();
      }),
      runs,
    );
  });

  it('keeps every mcpServers name and env and headers key', () => {
    fc.assert(
      fc.property(tokenKey, tokenKey, (name, key) => {
        const config = JSON.parse(
          JSON.stringify({
            ...own(name, { command: 'node', env: own(key, 'e') }),
            web: { url: 'https://example.com/mcp', headers: own(key, 'h') },
          }),
        ) as unknown;
        const [stdio, web] = resolveServers(config, {});
        expect(stdio?.name).toBe(name);
        expectOwn(stdio?.env, key, 'e');
        expectOwn(web?.headers, key, 'h');
      }),
      runs,
    );
  });

  it('refuses a bad __proto__ server entry with an error naming it', () => {
    const config = JSON.parse('{"__proto__": {"command": ""}}') as unknown;
    expect(() => resolveServers(config, {})).toThrow('mcpServers.__proto__');
  });

  it('reads WWW-Authenticate parameters under any name', () => {
    fc.assert(
      fc.property(tokenKey, (name) => {
        const [challenge] = parseChallenges(`Bearer ${name}="v", realm="r"`);
        expectOwn(challenge?.params, name.toLowerCase(), 'v');
      }),
      runs,
    );
  });

  it('expands a URI template with a variable named like a built-in only from own values', async () => {
    await compileUriTemplate('{x}').ready;
    fc.assert(
      fc.property(tokenKey, (variable) => {
        const template = compileUriTemplate(`x://{${variable}}/y`);
        expect(template.expand({})).toBe('x:///y');
        expect(template.expand(own(variable, 'v'))).toBe('x://v/y');
        expectOwn(template.match('x://v/y'), variable, 'v');
      }),
      runs,
    );
  });
});
