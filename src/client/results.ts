/**
 * Reading `resultType`: absent (a legacy result) means complete.
 * Source: 2026-07-28 basic/index "Result type", basic/patterns/mrtr.
 */
import { LocalError, type Params } from '../core/index.js';

/** How a result is to be read: final, or asking for input (MRTR). */
export type ResultKind = 'complete' | 'input_required';

/**
 * Reads `resultType`: absent (a legacy server) or `"complete"` → `'complete'`;
 * `"input_required"` → `'input_required'`.
 * @throws LocalError `INVALID_RESULT` for any other value.
 */
export function resultKind(result: Params, method: string): ResultKind {
  const type = result.resultType;
  if (type === undefined || type === 'complete') return 'complete';
  if (type === 'input_required') return 'input_required';
  throw new LocalError('INVALID_RESULT', `${method}: unknown resultType ${JSON.stringify(type)}`);
}
