/**
 * Whose thought history a thought joins. The official server keeps one history per process:
 * over stdio that is the client's (one process per client), but over HTTP every caller would
 * count in every other's `thoughtHistoryLength` and see their branch ids. Here a history lives
 * in `ctx.userState`, so its scope is the caller's: the verified principal (`ctx.auth`), else
 * the anonymous legacy HTTP session, else the stdio connection (so over stdio it is exactly
 * the official one). An anonymous modern HTTP request has no user state; those requests share
 * one history in this process, as every caller of the official server does.
 *
 * A history is a count and the branch ids, bounded by {@link MAX_HISTORY_BYTES}. Each
 * entry lives a day after its last thought (`userState.ttlMs`). Updates are serialised in
 * this process, so two thoughts of one caller sent at once are both counted; servers that
 * share a store across processes may lose such a count, as a process keeps no lock on it.
 */
import { ERROR_TABLE, LocalError, WireError } from '../../src/core/index.js';
import type { RequestContext } from '../../src/server/index.js';

/** What is kept of one caller's thinking. */
export interface ThoughtHistory {
  /** Thoughts recorded so far (the answer's `thoughtHistoryLength`). */
  thoughts: number;
  /** The branch ids seen, in order of first use. */
  branches: string[];
}

/** The most a history may take as JSON, in UTF-8 bytes: a new branch id past it is refused. */
export const MAX_HISTORY_BYTES = 32_768;

const KEY = 'sequentialthinking.history';

/** Records one thought (and its branch, if new) in the caller's history and resolves with the history after it. */
export type RecordThought = (ctx: RequestContext, branchId: string | undefined) => Promise<ThoughtHistory>;

/**
 * The histories of one server instance.
 * @throws (from the returned function) LocalError `LIMIT_EXCEEDED` when a new branch id would
 *   take the history past {@link MAX_HISTORY_BYTES}; what `ctx.userState` throws.
 */
export function thoughtHistories(): RecordThought {
  const shared: ThoughtHistory = { thoughts: 0, branches: [] };
  let queue: Promise<unknown> = Promise.resolve();
  const record = async (ctx: RequestContext, branchId: string | undefined): Promise<ThoughtHistory> => {
    const stored = await readOwn(ctx);
    const next = added(stored ?? shared, branchId);
    if (stored) await ctx.userState.set(KEY, next);
    else Object.assign(shared, next);
    return next;
  };
  return (ctx, branchId) => {
    const done = queue.then(() => record(ctx, branchId));
    queue = done.catch(() => undefined);
    return done;
  };
}

/** The caller's own history (empty when new), or undefined for a caller with no user state. */
async function readOwn(ctx: RequestContext): Promise<ThoughtHistory | undefined> {
  try {
    return ((await ctx.userState.get(KEY)) as ThoughtHistory | undefined) ?? { thoughts: 0, branches: [] };
  } catch (error) {
    const forbidden = ERROR_TABLE.Forbidden;
    if (
      error instanceof WireError &&
      error.code === forbidden.code &&
      error.httpStatus === forbidden.httpStatus
    )
      return undefined;
    throw error;
  }
}

/** `history` with one more thought and `branchId` among its branches. @throws LocalError `LIMIT_EXCEEDED`. */
function added(history: ThoughtHistory, branchId: string | undefined): ThoughtHistory {
  const isNew = branchId !== undefined && !history.branches.includes(branchId);
  const next = {
    thoughts: history.thoughts + 1,
    branches: isNew ? [...history.branches, branchId] : history.branches,
  };
  if (isNew && Buffer.byteLength(JSON.stringify(next)) > MAX_HISTORY_BYTES)
    throw new LocalError(
      'LIMIT_EXCEEDED',
      `branch ${JSON.stringify(branchId.slice(0, 40))} not recorded: the thought history would pass ${MAX_HISTORY_BYTES} bytes of branch ids`,
    );
  return next;
}
