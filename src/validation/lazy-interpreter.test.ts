import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { META_2020_12, Validator } from './lazy-interpreter.js';

const META = 'https://json-schema.org/draft/2020-12/schema';

/** ajv's 2020-12 meta-schema documents, as its CommonJS module adds them to an ajv instance. */
async function ajvDocuments(): Promise<object[]> {
  const refs = await import('ajv/dist/refs/json-schema-2020-12/index.js');
  type AddMetaSchema = (this: unknown, $data: boolean) => void;
  const exported = refs.default as unknown as AddMetaSchema | { default: AddMetaSchema };
  const addMetaSchema2020 = typeof exported === 'function' ? exported : exported.default; // CJS interop
  const documents: object[] = [];
  addMetaSchema2020.call({ addMetaSchema: (document: object) => void documents.push(document) }, false);
  return documents;
}

/** Every `$dynamicRef` keyword (a string; not the property of that name) becomes a `$ref` to the meta-schema. */
function staticReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(staticReferences);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) =>
    key === '$dynamicRef' && typeof value === 'string' ? ['$ref', META] : [key, staticReferences(value)],
  );
  return Object.fromEntries(entries);
}

describe('the 2020-12 meta-schema the interpreter checks schemas against', () => {
  it('is the installed ajv’s, with $dynamicRef keywords made static (MCPKIT_UPDATE_META=1 rewrites it)', async () => {
    const expected = (await ajvDocuments()).map(staticReferences);
    if (process.env.MCPKIT_UPDATE_META === '1') {
      // Then run `npx prettier --write src/validation/meta-2020-12.json`.
      writeFileSync(
        new URL('./meta-2020-12.json', import.meta.url),
        JSON.stringify(expected, null, 2) + '\n',
      );
    }
    expect(META_2020_12).toEqual(expected);
    expect((META_2020_12[0] as { $id: string }).$id).toBe(META);
    expect(JSON.stringify(META_2020_12)).not.toContain('"$dynamicRef":"#');
  });

  it('checks the core keywords ($ref a string) and the vocabularies through the interpreter', () => {
    const [root, ...vocabularies] = META_2020_12;
    const meta = new Validator(root as object, '2020-12', true);
    for (const document of vocabularies) meta.addSchema(document);
    const verdict = (schema: object) => meta.validate(schema).valid;
    expect(
      verdict({
        type: 'object',
        $defs: { n: { type: 'integer' } },
        properties: { a: { $ref: '#/$defs/n' } },
      }),
    ).toBe(true);
    expect(verdict({ properties: { a: { $ref: 5 } } })).toBe(false); // core: $ref is a URI reference string
    expect(verdict({ properties: { a: { minLength: 'two' } } })).toBe(false); // validation vocabulary
    expect(verdict({ items: { items: { type: 'nope' } } })).toBe(false); // applicator, nested
    expect(verdict({ properties: { $ref: { type: 'string' } } })).toBe(true); // a property named $ref
  });
});

describe('the draft-07 and 2019-09 meta-schemas the interpreter checks schemas against', () => {
  it('are the installed ajv’s documents, in the order the interpreter adds them (a Worker bundle holds no ajv file)', async () => {
    const { default: legacy } = await import('./meta-legacy.json', { with: { type: 'json' } });
    const ajvDocument = async (path: string): Promise<unknown> =>
      (await import(`ajv/dist/refs/${path}`, { with: { type: 'json' } })).default;
    const meta = (name: string) => ajvDocument(`json-schema-2019-09/meta/${name}.json`);
    expect(legacy['7']).toEqual([await ajvDocument('json-schema-draft-07.json')]);
    expect(legacy['2019-09']).toEqual([
      await ajvDocument('json-schema-2019-09/schema.json'),
      ...(await Promise.all(
        ['core', 'applicator', 'validation', 'meta-data', 'format', 'content'].map(meta),
      )),
    ]);
  });
});
