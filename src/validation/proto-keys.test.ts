/**
 * A property named `__proto__`, as JSON brings it: an own key of the arguments, required,
 * typed and depended on like any other, on both engines, and through a server on HTTP and
 * on a transport. (ajv skips such members of `properties` and the dependent keywords, and
 * read `required` through the prototype: proto-keys.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { modernPost, readAll } from '../../test/support/http-harness.js';
import { connect, createServer, type SchemaEngine } from '../server/index.js';
import { createHttpHandler } from '../server/http/index.js';
import { compileJsonSchema } from './index.js';

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
const ENGINES: SchemaEngine[] = ['compiled', 'interpreted'];
/** [schema, value, valid] as JSON text. */
const CASES: [string, string, boolean][] = [
  ['{"type":"object","required":["__proto__"]}', '{}', false],
  ['{"type":"object","required":["__proto__"]}', '{"__proto__":1}', true],
  ['{"properties":{"__proto__":{"type":"number"}}}', '{"__proto__":"x"}', false],
  ['{"properties":{"__proto__":{"type":"number"}}}', '{"__proto__":1}', true],
  ['{"properties":{"__proto__":{"type":"number"}},"additionalProperties":false}', '{"__proto__":1}', true],
  ['{"properties":{"__proto__":{"type":"number"}},"additionalProperties":false}', '{"a":1}', false],
  ['{"properties":{"a":{"properties":{"__proto__":{"const":2}}}}}', '{"a":{"__proto__":3}}', false],
  ['{"dependentRequired":{"__proto__":["b"]}}', '{"__proto__":1}', false],
  ['{"dependentRequired":{"__proto__":["b"]}}', '{"__proto__":1,"b":2}', true],
  ['{"dependentSchemas":{"__proto__":{"required":["c"]}}}', '{"__proto__":1}', false],
  ['{"dependentSchemas":{"__proto__":{"required":["c"]}}}', '{}', true],
];

describe.each(ENGINES)('a __proto__ member on the %s engine', (engine) => {
  it.each(CASES)('%s checks %s (valid: %s)', async (schema, value, valid) => {
    const outcome = await compileJsonSchema(json(schema), { engine })(json(value));
    expect(outcome.ok).toBe(valid);
  });
});

const REQUIRED = json(
  '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"number"}}}',
);

function serverFor(engine: SchemaEngine, seen: unknown[]) {
  const server = createServer({ name: 'proto', version: '1.0.0', limits: { schema: { engine } } });
  server.tool('take', { description: 'Takes __proto__', inputSchema: REQUIRED }, (args) => {
    seen.push(args);
    return Object.hasOwn(args, '__proto__') ? `own ${String(args.__proto__)}` : 'inherited';
  });
  return server;
}

describe.each(ENGINES)('a tool requiring __proto__ (%s engine)', (engine) => {
  it('refuses {} and sees {"__proto__":1} from a JSON body as an own property', async () => {
    const seen: unknown[] = [];
    const handler = createHttpHandler(serverFor(engine, seen), { keepAliveMs: 0 });
    const call = async (args: string) => {
      const response = await handler(modernPost('tools/call', { name: 'take', arguments: json(args) }));
      const [message] = await readAll(response, '2026-07-28');
      return (message as unknown as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    const missing = await call('{}');
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toContain("required property '__proto__'");
    expect((await call('{"__proto__":"x"}')).isError).toBe(true);
    expect(await call('{"__proto__":1}')).toMatchObject({ content: [{ text: 'own 1' }] });
    expect(seen.length).toBe(1);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });

  it('does the same for a client on a transport, both eras', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const [a, b] = createLinkedPair();
      await connect(serverFor(engine, []), b);
      const client = createClient({ name: 'c', version: '1', era });
      await client.connect(a);
      expect((await client.callTool('take', {})).isError).toBe(true);
      const own = await client.callTool('take', json('{"__proto__":1}'));
      expect(own).toMatchObject({ content: [{ text: 'own 1' }] });
      await client.close();
    }
  });
});
