/**
 * What the hybrid validator (interpreted.ts) loads on the first validation, in one module
 * so a bundler makes one lazy chunk of it: the interpreting validator
 * (@cfworker/json-schema) and the JSON Schema 2020-12 meta-schema it checks schemas
 * against. The meta-schema is the root document, then its seven vocabularies (core,
 * applicator, unevaluated, validation, meta-data, format-annotation, content): ajv's
 * documents (ajv/dist/refs/json-schema-2020-12) with `$dynamicRef: "#meta"` turned into a
 * `$ref` to the meta-schema, kept equal to the installed ajv's by lazy-interpreter.test.ts.
 * A JSON module rather than ajv's CommonJS index: one file to parse (or none, bundled)
 * where that loads nine through the CommonJS loader on a spawn's first call.
 * Source: JSON Schema 2020-12 Core §8 (meta-schemas and vocabularies).
 */
import documents from './meta-2020-12.json' with { type: 'json' };

export { Validator } from '@cfworker/json-schema';

/** The root meta-schema first, then the vocabulary meta-schemas (JSON documents). */
export const META_2020_12: readonly object[] = documents;
