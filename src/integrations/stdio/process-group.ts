/**
 * Ending a stdio server and whatever it started. On POSIX the child leads its own process
 * group, so a launcher that does not forward signals (`sh -c`, `npx`, `uv run`) cannot keep
 * the real server alive: the shutdown signals go to the group.
 * Source: 2026-07-28 basic/lifecycle "Shutdown" (stdio), basic/transports/stdio.
 */
import { setTimer } from '../../core/runtime.js';

/** Sends `signal` to every process of group `group`; false when the group is gone. */
export function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/** How often an emptying process group is looked at during shutdown, in milliseconds. */
const GROUP_POLL_MS = 25;

/**
 * Resolves once no process of group `group` is left (signal 0 fails), looking every
 * {@link GROUP_POLL_MS}; gives up after `ms` (the shutdown then escalates anyway).
 * A process that exited but was never reaped (a zombie under a PID 1 that does not reap, as
 * in many containers) still counts, so the wait then runs to `ms`.
 */
export async function groupGone(group: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (signalGroup(group, 0) && Date.now() < deadline) {
    await new Promise<void>((resolve) => setTimer(resolve, GROUP_POLL_MS));
  }
}

/** True when `promise` settles within `ms` milliseconds; the timer never outlives the wait. */
export async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimer(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
