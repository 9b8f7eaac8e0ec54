/**
 * What the package import `#compiled-engine` names under the `workerd` and `worker` export
 * conditions (package.json "imports"): no ajv. Workers refuse generated code, so
 * `engine: 'auto'` validates with the interpreter there (engine.ts) and a bundler for those
 * runtimes leaves ajv out. Same exports as ajv-engine.ts; json-schema.ts reads
 * `COMPILED_ENGINE_AVAILABLE` and never calls `createAjvInstances` here.
 */
import type { createAjvInstances as Create } from './ajv-engine.js';

/** False: this build leaves ajv out (ajv-engine.ts says true). */
export const COMPILED_ENGINE_AVAILABLE: boolean = false;

/** Never called (see the module comment). @throws Error always. */
export const createAjvInstances: typeof Create = () => {
  throw new Error('mcpkit: this bundle has no ajv (workerd/worker conditions)');
};
