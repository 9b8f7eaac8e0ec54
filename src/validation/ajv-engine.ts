/**
 * The compiled JSON Schema engine: one ajv instance per dialect (2020-12, 2019-09,
 * draft-07), with ajv-formats' checks, patterns and formats on RE2 (linear time) and a
 * linear `uniqueItems`. json-schema.ts loads this module on the first compiled validation
 * through the package import `#compiled-engine`, never by path: under the `workerd` and
 * `worker` export conditions that import names ajv-absent.ts instead, so a Worker bundle
 * carries no ajv (Workers refuse the code ajv generates; they validate with the
 * interpreter, no-codegen.ts).
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */
import type { ValidateFunction } from 'ajv';

/** What json-schema.ts uses of an ajv instance. */
export interface AjvLike {
  compile(schema: object): ValidateFunction;
  removeSchema(schema: object): unknown;
}

/** True: this build of the package carries ajv (ajv-absent.ts says false). */
export const COMPILED_ENGINE_AVAILABLE: boolean = true;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

/**
 * One ajv instance per dialect URI (without the trailing `#`): all errors, formats
 * validated, own properties only (`required: ["__proto__"]` must see an own key), and
 * patterns compiled with RE2, never V8's backtracking engine. ajv and its helpers are
 * imported here, in parallel, on the first call.
 */
export async function createAjvInstances(): Promise<Map<string, AjvLike>> {
  const [
    a2020,
    a2019,
    a07,
    formats,
    formatTable,
    { safeRegExp },
    { useLinearFormats },
    { useLinearUniqueItems },
  ] = await Promise.all([
    import('ajv/dist/2020.js'),
    import('ajv/dist/2019.js'),
    import('ajv'),
    import('ajv-formats'),
    import('ajv-formats/dist/formats.js'),
    import('./safe-regexp.js'),
    import('./safe-formats.js'),
    import('./unique-items.js'),
  ]);
  const options = {
    strict: false,
    allErrors: true,
    validateFormats: true,
    ownProperties: true,
    code: { regExp: safeRegExp },
  };
  const instances = new Map<string, AjvLike>([
    [DRAFT_2020, new a2020.Ajv2020(options)],
    [DRAFT_2019, new a2019.Ajv2019(options)],
    [DRAFT_07, new a07.Ajv(options)],
  ]);
  for (const ajv of instances.values()) {
    (formats.default as unknown as (ajv: AjvLike) => void)(ajv);
    useLinearFormats(ajv as never, formatTable.fullFormats);
    useLinearUniqueItems(ajv as never); // ajv's own is quadratic for object/array items
  }
  return instances;
}
