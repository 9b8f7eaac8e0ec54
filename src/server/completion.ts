/**
 * Argument completion for prompt arguments and resource template variables.
 * Source: 2026-07-28 server/utilities/completion (at most 100 values per response).
 */
import type { RequestContext } from './context.js';

/** Suggests values for one argument given what the user typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string>; request: RequestContext },
) => string[] | Promise<string[]>;

/** The `completion` object of a CompleteResult. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

const MAX_VALUES = 100;

/** Runs a completer (or none) and trims to the spec's maximum of 100 values. */
export async function runCompleter(
  completer: Completer | undefined,
  value: string,
  context: { arguments: Record<string, string>; request: RequestContext },
): Promise<CompletionValues> {
  const all = completer ? await completer(value, context) : [];
  if (all.length <= MAX_VALUES) return { values: all, total: all.length, hasMore: false };
  return { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: true };
}
