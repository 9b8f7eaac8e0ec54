/**
 * The rule on data kept on the legacy session (see check/session-state.ts for the probe):
 * the `--call` sequence answers a new session as it answered the first run, but the first
 * session's second run differently. Such a server loses that data on the modern era.
 */
import { comparable } from '../session-state.js';
import type { Answer } from '../observations.js';
import { described, type Rule } from './kit.js';

const sessionBound: Rule = {
  id: 'behaviour.session-state',
  severity: 'warning',
  section: 'server/tools "Stateful Tools"',
  requirement:
    'MCP has no protocol-level session, so a server cannot rely on implicit per-connection state to relate one tool call to the next.',
  check: (seen) => {
    const probe = seen.sessionState;
    if (!probe) return [];
    const [first, fresh, again] = [probe.first, probe.fresh, probe.again].map((run) => run.map(comparable));
    const runs = [first!, fresh!, again!];
    if (runs.some((run) => run.includes(undefined))) return [];
    const same = (x: (string | undefined)[], y: (string | undefined)[]) =>
      x.every((value, i) => value === y[i]);
    if (!same(first!, fresh!) || same(first!, again!)) return [];
    const at = first!.findIndex((value, i) => value !== again![i]);
    const call = probe.first[at]?.request.params as { name?: unknown } | undefined;
    return [
      {
        message:
          `the server keeps data on the legacy session: call ${at + 1} (${String(call?.name)}) answered ` +
          `${shown(probe.first[at])} in a session, ${shown(probe.again[at])} when repeated in that session, ` +
          `and ${shown(probe.fresh[at])} again in a new one. The modern era has no session: keep such data per ` +
          'user (the caller named by its credentials; mcpkit: ctx.userState) or behind a handle passed as a tool argument',
        offending: probe.again[at]?.response,
      },
    ];
  },
};

/** A short view of an answer for the message: its first text content, else what it was. */
function shown(answer: Answer | undefined): string {
  const content = (answer?.response?.result as { content?: { text?: unknown }[] } | undefined)?.content;
  const text = content?.[0]?.text;
  return typeof text === 'string' ? JSON.stringify(text.slice(0, 80)) : described(answer);
}

/** The session-state rules. */
export const SESSION_STATE_RULES: readonly Rule[] = [sessionBound];
