/** Schema validation shared by the server and the client (ajv and Standard Schema). */
export { compileJsonSchema, type JsonSchemaValidator, type SchemaLimits } from './json-schema.js';
export {
  compileSchema,
  isStandardSchema,
  type InferOutput,
  type SchemaInput,
  type StandardJsonSchema,
} from './schema.js';
export type { CompiledSchema, ValidationOutcome } from './types.js';
export type { SchemaEngine } from './engine.js';
