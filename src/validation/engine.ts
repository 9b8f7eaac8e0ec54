/**
 * Which engine validates JSON Schema, decided once: ajv compiles each schema to JavaScript
 * (`new Function`), which Cloudflare Workers and pages under a Content-Security-Policy
 * without `unsafe-eval` forbid. There every schema goes to the interpreting engine
 * (no-codegen.ts) from the first call, never to ajv.
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */

/**
 * `'auto'` (the default): compiled where code generation works, interpreted where it does
 * not (tested once per process). `'interpreted'`: never generate code (a strict CSP, or to
 * test that mode). `'compiled'`: always ajv, from the first call.
 */
export type SchemaEngine = 'auto' | 'compiled' | 'interpreted';

let generates: boolean | undefined;

/** True when this runtime lets code be generated at run time; tested on first use, then kept. */
function codeGenerationAvailable(): boolean {
  if (generates === undefined) {
    try {
      generates = new Function('return 1')() === 1;
    } catch {
      generates = false; // EvalError on Workers, a CSP violation in a page
    }
  }
  return generates;
}

/** The engine `engine` (an option, default `'auto'`) stands for here: compiled or interpreted. */
export function resolvedEngine(engine: SchemaEngine | undefined): 'compiled' | 'interpreted' | 'hybrid' {
  if (engine === 'compiled' || engine === 'interpreted') return engine;
  return codeGenerationAvailable() ? 'hybrid' : 'interpreted';
}
