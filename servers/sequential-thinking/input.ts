/**
 * The `sequentialthinking` tool's arguments: listed as the official server lists them (draft-07
 * JSON Schema), and checked as it checks them, which is more lenient than the schema says:
 * `"true"`/`"false"` strings are booleans and numeric strings are numbers, as zod's coercion
 * makes them. A Standard Schema (validate + its JSON Schema) carries both.
 * Source: Standard Schema v1, Standard JSON Schema v1.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** The checked arguments of one thought. */
export interface ThoughtInput {
  thought: string;
  nextThoughtNeeded: boolean;
  thoughtNumber: number;
  totalThoughts: number;
  isRevision?: boolean;
  revisesThought?: number;
  branchFromThought?: number;
  branchId?: string;
  needsMoreThoughts?: boolean;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const boolish = (description: string) => ({ description, type: ['boolean', 'string'] });
const count = (description: string) => ({
  description,
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
});

/** The input schema as the official server lists it. */
const JSON_SCHEMA = {
  type: 'object',
  properties: {
    thought: { type: 'string', description: 'Your current thinking step' },
    nextThoughtNeeded: boolish('Whether another thought step is needed'),
    thoughtNumber: count('Current thought number (numeric value, e.g., 1, 2, 3)'),
    totalThoughts: count('Estimated total thoughts needed (numeric value, e.g., 5, 10)'),
    isRevision: boolish('Whether this revises previous thinking'),
    revisesThought: count('Which thought is being reconsidered'),
    branchFromThought: count('Branching point thought number'),
    branchId: { description: 'Branch identifier', type: 'string' },
    needsMoreThoughts: boolish('If more thoughts are needed'),
  },
  required: ['thought', 'nextThoughtNeeded', 'thoughtNumber', 'totalThoughts'],
  $schema: DRAFT_07,
};

type Field = (value: unknown) => { ok: true; value: unknown } | { ok: false; message: string };

const text: Field = (value) =>
  typeof value === 'string' ? { ok: true, value } : { ok: false, message: 'expected string' };

const flag: Field = (value) => {
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value !== 'string') return { ok: false, message: 'expected boolean or "true"/"false" string' };
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false') return { ok: true, value: lower === 'true' };
  return { ok: false, message: `Expected boolean or "true"/"false" string, received "${value}"` };
};

const positive: Field = (value) => {
  const n = Number(value);
  if (Number.isNaN(n)) return { ok: false, message: 'expected number, received NaN' };
  if (!Number.isSafeInteger(n)) return { ok: false, message: 'expected int, received number' };
  return n >= 1 ? { ok: true, value: n } : { ok: false, message: 'Too small: expected number to be >=1' };
};

const FIELDS: Record<keyof ThoughtInput, [Field, required: boolean]> = {
  thought: [text, true],
  nextThoughtNeeded: [flag, true],
  thoughtNumber: [positive, true],
  totalThoughts: [positive, true],
  isRevision: [flag, false],
  revisesThought: [positive, false],
  branchFromThought: [positive, false],
  branchId: [text, false],
  needsMoreThoughts: [flag, false],
};

function validate(value: unknown): StandardSchemaV1.Result<ThoughtInput> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { issues: [{ message: 'expected object' }] };
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const issues: StandardSchemaV1.Issue[] = [];
  for (const [key, [field, required]] of Object.entries(FIELDS)) {
    if (input[key] === undefined) {
      if (required) issues.push({ message: 'required', path: [key] });
      continue;
    }
    const checked = field(input[key]);
    if (checked.ok) out[key] = checked.value;
    else issues.push({ message: checked.message, path: [key] });
  }
  return issues.length > 0 ? { issues } : { value: out as unknown as ThoughtInput };
}

/** The tool's input schema: the official listing, the official leniency. */
export const THOUGHT_INPUT: StandardSchemaV1<unknown, ThoughtInput> &
  StandardJSONSchemaV1<unknown, ThoughtInput> = {
  '~standard': {
    version: 1,
    vendor: 'mcpkit-sequential-thinking',
    validate,
    jsonSchema: { input: () => JSON_SCHEMA, output: () => JSON_SCHEMA },
  },
};
