/** Shapes shared by the validators. */

/** The result of validating a value: the (possibly transformed) value, or readable issues. */
export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; issues: string[] };

/** A schema compiled once: its JSON Schema form (sent on the wire) and its validator. */
export interface CompiledSchema {
  /** The JSON Schema to publish (e.g. a tool's `inputSchema`). */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a value; may be async for Standard Schema libraries. */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}
