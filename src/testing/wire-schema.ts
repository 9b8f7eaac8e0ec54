/**
 * The spec as test oracle: validates JSON-RPC messages against the official `schema.json` of
 * a revision (copies in `<package root>/test/spec/`). Used by tests across the project.
 * Node-only (reads files); not part of core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { LocalError } from '../core/index.js';

/** The revisions whose official schema is kept in `test/spec/`. */
export type WireRevision = '2026-07-28' | '2025-11-25';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const validators = new Map<WireRevision, ValidateFunction>();

/** Finds the package root: the nearest folder above this file holding `package.json`. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('wire-schema: no package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

/**
 * Reads the official JSON Schema of a revision (a 2020-12 document with `$defs`).
 * Throws if the file is missing.
 */
function loadOfficialSchema(revision: WireRevision): { [key: string]: unknown } {
  const file = join(packageRoot(), 'test', 'spec', `schema-${revision}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as { [key: string]: unknown };
}

/**
 * Builds an ajv instance holding the official schema of `revision` under the key `mcp`, so
 * `mcp#/$defs/<Name>` refers to any definition. `strict: false` because the spec schema
 * uses annotation keywords ajv does not know.
 */
export function officialSchemaAjv(revision: WireRevision): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(loadOfficialSchema(revision), 'mcp');
  return ajv;
}

function compiled(revision: WireRevision): ValidateFunction {
  let validate = validators.get(revision);
  if (!validate) {
    validate = officialSchemaAjv(revision).compile({ $ref: 'mcp#/$defs/JSONRPCMessage' });
    validators.set(revision, validate);
  }
  return validate;
}

/**
 * Returns a checker for `JSONRPCMessage` of `revision`; it returns ajv's errors as
 * `"<instancePath> <message>"` lines, empty when the message is valid. Compiled once per revision.
 */
export function wireValidator(revision: WireRevision): (message: unknown) => string[] {
  const validate = compiled(revision);
  return (message) => {
    if (validate(message)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`,
    );
  };
}

/**
 * Throws an LocalError `INVALID_ARGUMENT` listing ajv's errors and the message when `message` is not a valid
 * `JSONRPCMessage` of `revision`.
 */
export function assertWireValid(message: unknown, revision: WireRevision): void {
  const errors = wireValidator(revision)(message);
  if (errors.length === 0) return;
  throw new LocalError(
    'INVALID_ARGUMENT',
    `message is not a valid ${revision} JSONRPCMessage:\n  ${errors.join('\n  ')}\nmessage: ${JSON.stringify(message)}`,
  );
}
