/**
 * The rule on data kept on the legacy session that the modern era loses (see
 * check/session-state.ts for the probe): the `--call` sequence answers a new session as it
 * answered the first run, but the first session's second run differently, while the modern
 * era's second run answers as its first (nothing kept). Without modern runs, a stream
 * transport is given the benefit of the doubt (its modern era keeps the connection, one
 * process per client) and HTTP is not (a legacy session id is all that kept the data).
 */
import { comparable } from '../session-state.js';
import type { Answer, SessionStateSeen } from '../observations.js';
import { described, type Rule } from './kit.js';

type Runs = (string | undefined)[];

const same = (x: Runs, y: Runs): boolean => x.every((value, i) => value === y[i]);

/** True when the modern era demonstrably keeps nothing between two runs, or (no modern runs) over HTTP. */
function modernLoses(probe: SessionStateSeen): boolean {
  if (!probe.modern) return probe.over === 'http';
  const [first, again] = [probe.modern.first.map(comparable), probe.modern.again.map(comparable)];
  return !first.includes(undefined) && !again.includes(undefined) && same(first, again);
}

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
    if ([first!, fresh!, again!].some((run) => run.includes(undefined))) return [];
    if (!same(first!, fresh!) || same(first!, again!) || !modernLoses(probe)) return [];
    const at = first!.findIndex((value, i) => value !== again![i]);
    const call = probe.first[at]?.request.params as { name?: unknown } | undefined;
    const modern = probe.modern
      ? `, and the modern era kept nothing between two runs (${probe.over === 'http' ? 'requests' : 'one connection'})`
      : '';
    return [
      {
        message:
          `the server keeps data on the legacy session: call ${at + 1} (${String(call?.name)}) answered ` +
          `${shown(probe.first[at])} in a session, ${shown(probe.again[at])} when repeated in that session, ` +
          `and ${shown(probe.fresh[at])} again in a new one${modern}. The modern era has no session: keep such data per ` +
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
