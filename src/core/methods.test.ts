import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CACHEABLE_METHODS,
  INPUT_METHODS,
  METHODS,
  MODERN_CORE_METHODS,
  TASK_METHODS,
  methodFacts,
  targetOf,
} from './methods.js';
import { mcpNameOf } from './wire.js';
import { serverCapabilityNeeded } from './capabilities.js';

/** The `method` constants of a revision's ClientRequest union, read from the spec's schema. */
function clientRequests(revision: string): string[] {
  const url = new URL(`../../test/spec/schema-${revision}.json`, import.meta.url);
  type Def = { anyOf?: { $ref: string }[]; properties?: { method?: { const?: string } } };
  const defs = (JSON.parse(readFileSync(url, 'utf8')) as { $defs: Record<string, Def> }).$defs;
  return (defs.ClientRequest?.anyOf ?? []).map(
    (r) => defs[r.$ref.split('/').pop()!]?.properties?.method?.const ?? '',
  );
}

describe('the method table', () => {
  it('holds every core client request of each revision, with the eras the schemas give', () => {
    const modern = clientRequests('2026-07-28');
    // The legacy schema's task methods are left out (the modern Tasks extension replaces them).
    const legacy = clientRequests('2025-11-25').filter((m) => !m.startsWith('tasks/'));
    const core = Object.keys(METHODS).filter((m) => !methodFacts(m)!.task);
    expect(new Set(core)).toEqual(new Set([...modern, ...legacy]));
    for (const m of core) {
      const eras = modern.includes(m) ? (legacy.includes(m) ? 'both' : 'modern') : 'legacy';
      expect([m, methodFacts(m)!.eras]).toEqual([m, eras]);
    }
    expect(MODERN_CORE_METHODS).toEqual(new Set(modern));
  });

  it('names the spec’s input-capable, task, cacheable and target rules once', () => {
    // basic/patterns/mrtr "Supported Requests"
    expect(INPUT_METHODS).toEqual(new Set(['tools/call', 'resources/read', 'prompts/get']));
    expect(TASK_METHODS).toEqual(new Set(['tasks/get', 'tasks/update', 'tasks/cancel']));
    expect(CACHEABLE_METHODS).toEqual(
      new Set([
        'server/discover',
        'tools/list',
        'resources/list',
        'resources/templates/list',
        'prompts/list',
        'resources/read',
      ]),
    );
    expect(targetOf('tools/call', { name: 't' })).toBe('t');
    expect(targetOf('prompts/get', { name: 'p' })).toBe('p');
    expect(targetOf('resources/read', { uri: 'u://x' })).toBe('u://x');
    expect(mcpNameOf('tasks/get', { taskId: 'k' })).toBe('k');
    expect(targetOf('tools/list', { name: 'x' })).toBeUndefined();
  });

  it('answers for a method it does not hold, prototype names included, with undefined', () => {
    for (const m of ['__proto__', 'constructor', 'toString', 'acme/echo']) {
      expect(methodFacts(m)).toBeUndefined();
      expect(targetOf(m, { name: 'x' })).toBeUndefined();
      expect(serverCapabilityNeeded(m)).toBeUndefined();
    }
  });

  it('is frozen, and each capability a method needs comes from it', () => {
    expect(Object.isFrozen(METHODS)).toBe(true);
    expect(Object.isFrozen(METHODS['tools/call'])).toBe(true);
    expect(serverCapabilityNeeded('prompts/get')).toEqual({ prompts: {} });
    expect(serverCapabilityNeeded('resources/unsubscribe')).toEqual({ resources: { subscribe: {} } });
    expect(serverCapabilityNeeded('tasks/cancel')).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });
});
