import { describe, expect, it } from 'vitest';
import {
  clientCapabilityNeeded,
  declares,
  missingCapabilities,
  serverCapabilityNeeded,
} from './capabilities.js';

const TOOLS = [{ name: 't', inputSchema: { type: 'object' } }];

describe('clientCapabilityNeeded', () => {
  it.each([
    ['sampling/createMessage', { messages: [], maxTokens: 1 }, { sampling: {} }],
    ['sampling/createMessage', { messages: [], maxTokens: 1, tools: TOOLS }, { sampling: { tools: {} } }],
    ['sampling/createMessage', { toolChoice: { mode: 'auto' } }, { sampling: { tools: {} } }],
    ['sampling/createMessage', { includeContext: 'none' }, { sampling: {} }],
    ['sampling/createMessage', { includeContext: 'thisServer' }, { sampling: { context: {} } }],
    [
      'sampling/createMessage',
      { includeContext: 'allServers', tools: [] },
      { sampling: { tools: {}, context: {} } },
    ],
    ['elicitation/create', { message: 'm', requestedSchema: {} }, { elicitation: { form: {} } }],
    ['elicitation/create', { mode: 'url', url: 'https://x' }, { elicitation: { url: {} } }],
    ['roots/list', {}, { roots: {} }],
    ['notifications/roots/list_changed', undefined, { roots: { listChanged: {} } }],
    ['tools/call', {}, undefined],
  ])('%s %j needs %j', (method, params, need) => {
    expect(clientCapabilityNeeded(method, params)).toEqual(need);
  });

  it('reads own keys only: an inherited tools field is not a tool-enabled request', () => {
    const params = Object.create({ tools: TOOLS }) as object;
    expect(clientCapabilityNeeded('sampling/createMessage', params)).toEqual({ sampling: {} });
  });
});

describe('serverCapabilityNeeded', () => {
  it.each([
    ['tools/call', { tools: {} }],
    ['resources/read', { resources: {} }],
    ['resources/subscribe', { resources: { subscribe: {} } }],
    ['resources/unsubscribe', { resources: { subscribe: {} } }],
    ['logging/setLevel', { logging: {} }],
    ['completion/complete', { completions: {} }],
    ['tasks/get', { extensions: { 'io.modelcontextprotocol/tasks': {} } }],
    ['notifications/tools/list_changed', { tools: { listChanged: {} } }],
    ['notifications/resources/updated', { resources: { subscribe: {} } }],
    ['ping', undefined],
  ])('%s needs %j', (method, need) => {
    expect(serverCapabilityNeeded(method)).toEqual(need);
  });
});

describe('missingCapabilities', () => {
  it.each([
    [{ sampling: {} }, { sampling: { tools: {} } }, { sampling: { tools: {} } }],
    [{ sampling: { tools: {} } }, { sampling: { tools: {} } }, undefined],
    [{}, { sampling: { tools: {} } }, { sampling: { tools: {} } }],
    [{ sampling: { tools: {} } }, { sampling: { tools: {}, context: {} } }, { sampling: { context: {} } }],
    [{ elicitation: {} }, { elicitation: { form: {} } }, undefined],
    [{ elicitation: {} }, { elicitation: { url: {} } }, { elicitation: { url: {} } }],
    [{ elicitation: { url: {} } }, { elicitation: { form: {} } }, { elicitation: { form: {} } }],
    [{ resources: { subscribe: true } }, { resources: { subscribe: {} } }, undefined],
    [{ resources: { subscribe: false } }, { resources: { subscribe: {} } }, { resources: { subscribe: {} } }],
    [{ resources: {} }, { resources: { subscribe: {} } }, { resources: { subscribe: {} } }],
    [{ tools: { listChanged: true } }, { tools: { listChanged: {} } }, undefined],
    [undefined, { roots: {} }, { roots: {} }],
  ])('declared %j, need %j: missing %j', (declared, need, missing) => {
    expect(missingCapabilities(declared, need)).toEqual(missing);
    expect(declares(declared, need)).toBe(missing === undefined);
  });

  it('does not take an inherited member for a declaration', () => {
    expect(missingCapabilities({}, { toString: {} })).toEqual({ toString: {} });
    expect(missingCapabilities(JSON.parse('{"sampling":{}}'), { sampling: { constructor: {} } })).toEqual({
      sampling: { constructor: {} },
    });
  });
});
