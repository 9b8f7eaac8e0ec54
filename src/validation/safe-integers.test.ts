import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createClient } from '../client/index.js';
import { connect, createServer, type SchemaEngine } from '../server/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { compileJsonSchema } from './index.js';
import { withSafeIntegerBounds } from './safe-integers.js';

// What JSON.parse makes of 1917043659912705296: the nearest double, 1917043659912705300.
const ROUNDED = JSON.parse('1917043659912705296') as number;
const ENGINES: SchemaEngine[] = ['compiled', 'interpreted', 'auto'];
const ORDER = {
  type: 'object',
  properties: {
    orderId: { type: 'integer' },
    qty: { type: 'integer', maximum: 10 },
    price: { type: 'number' },
  },
};

describe.each(ENGINES)('an integer schema on the %s engine', (engine) => {
  it('refuses an integer a JSON number cannot carry exactly, naming where it is', async () => {
    const validate = compileJsonSchema(ORDER, { engine });
    const outcome = await validate({ orderId: ROUNDED });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? [] : outcome.issues).toEqual([
      `'/orderId' must be an integer within ±9007199254740991 (2^53 − 1): a JSON number cannot carry a larger one exactly`,
    ]);
    expect((await validate({ orderId: -ROUNDED })).ok).toBe(false);
  });

  it('accepts safe integers, keeps tighter bounds, and leaves `number` alone', async () => {
    const validate = compileJsonSchema(ORDER, { engine });
    expect((await validate({ orderId: Number.MAX_SAFE_INTEGER, qty: 10, price: 1e300 })).ok).toBe(true);
    const outcome = await validate({ qty: 11 });
    expect(outcome.ok ? [] : outcome.issues).toEqual([`'/qty' must be <= 10`]);
  });
});

describe('the bounds are added to the compiled copy only', () => {
  it('leaves the schema a tool lists unchanged, and data keywords untouched', () => {
    const schema = { type: 'integer', const: { type: 'integer' }, anyOf: [{ type: ['integer', 'null'] }] };
    const copy = withSafeIntegerBounds(schema);
    expect(schema).toEqual({
      type: 'integer',
      const: { type: 'integer' },
      anyOf: [{ type: ['integer', 'null'] }],
    });
    expect(copy).toEqual({
      type: 'integer',
      maximum: Number.MAX_SAFE_INTEGER,
      minimum: Number.MIN_SAFE_INTEGER,
      const: { type: 'integer' },
      anyOf: [
        { type: ['integer', 'null'], maximum: Number.MAX_SAFE_INTEGER, minimum: Number.MIN_SAFE_INTEGER },
      ],
    });
  });
});

describe('a tool whose argument is an integer, called with 1917043659912705296', () => {
  async function call(inputSchema: object): Promise<{ result: unknown; seen: unknown[] }> {
    const seen: unknown[] = [];
    const server = createServer({ name: 's', version: '1' });
    server.tool('refund', { description: 'Refunds an order', inputSchema: inputSchema as never }, (args) => {
      seen.push(args);
      return 'refunded';
    });
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const client = createClient({ name: 'c', version: '1', era: 'modern' });
    await client.connect(a);
    const result = await client.callTool('refund', { orderId: ROUNDED });
    await client.close();
    return { result, seen };
  }

  it('never reaches the handler rounded (JSON Schema)', async () => {
    const { result, seen } = await call(ORDER);
    expect(seen).toEqual([]);
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain(`'/orderId' must be an integer within`);
  });

  it('never reaches the handler rounded (zod)', async () => {
    const { result, seen } = await call(z.object({ orderId: z.int() }));
    expect(seen).toEqual([]);
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain('orderId');
  });
});
