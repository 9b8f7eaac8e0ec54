/**
 * Reads and dereferences an OpenAPI document with @apidevtools/swagger-parser, keeping going
 * past bad `$ref`s so that each one can be charged to the operations it breaks. External
 * references (other files, URLs) are never fetched; recursive ones stay as `$ref`s, which the
 * schema conversion reports. Swagger 2.0 is refused: its shapes differ from 3.x.
 * Source: OpenAPI 3.0.3 and 3.1.0 §4.8 (document structure), §4.8.23 "Reference Object".
 */
import { LocalError } from '../core/index.js';
import { DEFAULT_MAX_JSON_DEPTH, isObject, loadOptional, valueDeeperThan } from '../core/runtime.js';
import type { Dialect } from './schema.js';

/** A dereferenced OpenAPI 3.x document and the `$ref` failures found on the way. */
export interface LoadedDocument {
  document: Record<string, unknown>;
  dialect: Dialect;
  /** Unresolvable `$ref`s by the JSON path (`paths/…/get/…`) where each was met. */
  refErrors: Array<{ path: readonly string[]; message: string }>;
}

/** The subset of swagger-parser's error group this module reads. */
interface ErrorGroup {
  errors: Array<{ message: string; path?: Array<string | number> }>;
  files?: { schema?: unknown };
}

/**
 * Loads `spec`: a document object (copied, never changed) or a file path or URL of a JSON or
 * YAML document.
 * @throws LocalError `MISSING_DEPENDENCY` when @apidevtools/swagger-parser (an optional peer
 *   dependency) is not installed.
 * @throws LocalError `INVALID_ARGUMENT` when the document cannot be read, is not OpenAPI
 *   3.0/3.1 (Swagger 2.0 included), or has no `paths`.
 */
export async function loadDocument(spec: string | object): Promise<LoadedDocument> {
  const { default: SwaggerParser } = await loadOptional(
    '@apidevtools/swagger-parser',
    'mcpkit/openapi',
    () => import('@apidevtools/swagger-parser'),
  );
  const input = typeof spec === 'string' ? spec : structuredClone(spec);
  let parsed: unknown;
  try {
    parsed = await SwaggerParser.parse(input as string);
  } catch (error) {
    // The parsers recurse: a document nested thousands of levels deep overflows their stack.
    if (error instanceof RangeError)
      throw new LocalError(
        'INVALID_ARGUMENT',
        `cannot read the OpenAPI document: nested too deep (over ${DEFAULT_MAX_JSON_DEPTH} levels is refused)`,
        { cause: error },
      );
    throw new LocalError('INVALID_ARGUMENT', unreadable(spec, error), { cause: error });
  }
  if (valueDeeperThan(parsed, DEFAULT_MAX_JSON_DEPTH))
    throw new LocalError(
      'INVALID_ARGUMENT',
      `the OpenAPI document is nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
    );
  const dialect = dialectOf(parsed);
  const refErrors: LoadedDocument['refErrors'] = [];
  let document: unknown;
  try {
    document = await SwaggerParser.dereference(parsed as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
      continueOnError: true,
    });
  } catch (error) {
    const group = error as Partial<ErrorGroup>;
    if (!Array.isArray(group.errors) || !isObject(group.files?.schema)) throw wrap(error);
    for (const e of group.errors) refErrors.push({ path: (e.path ?? []).map(String), message: e.message });
    document = group.files.schema;
  }
  if (!isObject(document) || !isObject(document.paths))
    throw new LocalError('INVALID_ARGUMENT', 'the OpenAPI document has no `paths` object');
  return { document, dialect, refErrors };
}

function dialectOf(parsed: unknown): Dialect {
  const version = isObject(parsed) ? parsed.openapi : undefined;
  if (typeof version === 'string' && version.startsWith('3.1')) return '3.1';
  if (typeof version === 'string' && version.startsWith('3.0')) return '3.0';
  const swagger = isObject(parsed) && parsed.swagger !== undefined;
  throw new LocalError(
    'INVALID_ARGUMENT',
    swagger
      ? 'Swagger 2.0 documents are not supported: convert the document to OpenAPI 3 first'
      : `unsupported OpenAPI version ${JSON.stringify(version)}: 3.0.x and 3.1.x are supported`,
  );
}

/**
 * Why the document could not be read. swagger-parser calls anything that parses but is no
 * object (plain text reads as a YAML string) "not a valid JSON Schema", which misleads.
 */
function unreadable(spec: string | object, error: unknown): string {
  const name = typeof spec === 'string' ? spec : 'the document object';
  const message = messageOf(error);
  if (!/is not a valid JSON Schema/.test(message))
    return `cannot read the OpenAPI document ${name}: ${message}`;
  return `cannot read the OpenAPI document ${name}: it parses (as JSON or YAML) to a plain value, not an object; expected an OpenAPI 3.0 or 3.1 document, a JSON or YAML object with "openapi", "info" and "paths"`;
}

function wrap(error: unknown): LocalError {
  return new LocalError('INVALID_ARGUMENT', `cannot dereference the OpenAPI document: ${messageOf(error)}`, {
    cause: error,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
