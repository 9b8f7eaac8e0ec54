/**
 * A bundle built for the workerd/worker conditions has no ajv (`#compiled-engine` is
 * ajv-absent.ts there). Where such a bundle still runs code generation (a web worker built
 * with the `worker` condition), `engine: 'auto'` must interpret every schema instead of
 * waiting for an ajv that is not there, and `engine: 'compiled'` must say why it cannot.
 */
import { describe, expect, it, vi } from 'vitest';
import { HOT_AFTER } from './interpreted.js';
import { compileJsonSchema } from './json-schema.js';

vi.mock('#compiled-engine', () => import('./ajv-absent.js'));

const NAMED = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

describe('JSON Schema validation in a bundle without ajv', () => {
  it('interprets under the auto engine, verdicts and messages included, past the hot threshold', async () => {
    const validate = compileJsonSchema(NAMED);
    for (let i = 0; i < HOT_AFTER + 5; i++)
      expect(await validate({ n: i })).toEqual({ ok: true, value: { n: i } });
    const bad = await validate({ n: 'x' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.join()).toContain('/n');
  });

  it('interprets the schemas the hybrid engine sends straight to ajv (a pattern, draft-07)', async () => {
    const pattern = compileJsonSchema({ type: 'string', pattern: '^a+$' });
    expect((await pattern('aaa')).ok).toBe(true);
    expect((await pattern('b')).ok).toBe(false);
    const draft07 = compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', minimum: 2 });
    expect((await draft07(3)).ok).toBe(true);
    expect((await draft07(1)).ok).toBe(false);
  });

  it("refuses engine 'compiled', naming the engines that work", async () => {
    const validate = compileJsonSchema(NAMED, { engine: 'compiled' });
    await expect(Promise.resolve().then(() => validate({ n: 1 }))).rejects.toThrow(
      /'compiled' \(ajv\) is not in this bundle.*'auto' or 'interpreted'/,
    );
  });
});
