/**
 * The JSON Schema 2020-12 meta-schema as the interpreter reads it: the root document, then
 * its seven vocabularies (core, applicator, unevaluated, validation, meta-data,
 * format-annotation, content). The documents are ajv's (ajv/dist/refs/json-schema-2020-12),
 * with `$dynamicRef: "#meta"` turned into a `$ref` to the meta-schema; meta-2020-12.test.ts
 * keeps them equal to the installed ajv's. A JSON module: a bundler inlines it, and Node
 * parses one file where ajv's CommonJS index would load nine.
 * Source: JSON Schema 2020-12 Core §8 (meta-schemas and vocabularies).
 */
import documents from './meta-2020-12.json' with { type: 'json' };

/** The root meta-schema first, then the vocabulary meta-schemas (JSON documents). */
export const META_2020_12: readonly object[] = documents;
