import { describe, expect, it } from 'vitest';
import { deferred, turn } from '../../test/support/wait.js';
import { FrameQueue } from './frame-queue.js';

/** A queue whose handler logs "start X" and "done X"; frames named in `slow` wait for `gate`. */
function logging(slow: string[] = []) {
  const log: string[] = [];
  const gate = deferred();
  const queue = new FrameQueue(
    (text) => {
      log.push(`start ${text}`);
      if (text === 'sync') return void log.push(`done ${text}`);
      const work = slow.includes(text) ? gate.promise : Promise.resolve();
      return work.then(() => Promise.resolve()).then(() => void log.push(`done ${text}`));
    },
    (error) => log.push(`error ${String(error)}`),
  );
  return { queue, log, open: gate.resolve };
}

describe('FrameQueue', () => {
  it('finishes each frame of a burst before starting the next when the handling needs only microtasks', async () => {
    const { queue, log } = logging();
    for (const f of ['a', 'b', 'c']) queue.push(f);
    expect(log).toEqual(['start a']);
    await turn();
    expect(log).toEqual(['start a', 'done a', 'start b', 'done b', 'start c', 'done c']);
    expect(queue.pending).toBe(0);
  });

  it('runs frames handled synchronously at once, in order', () => {
    const { queue, log } = logging();
    queue.push('sync');
    queue.push('sync');
    expect(log).toEqual(['start sync', 'done sync', 'start sync', 'done sync']);
  });

  it('does not let a frame that waits on I/O hold back the frames behind it', async () => {
    const { queue, log, open } = logging(['slow']);
    for (const f of ['slow', 'b', 'c']) queue.push(f);
    await turn();
    expect(log).toEqual(['start slow', 'start b', 'done b', 'start c', 'done c']);
    open();
    await turn();
    expect(log.at(-1)).toBe('done slow');
  });

  it('reports a handling that fails and goes on with the next frame', async () => {
    const log: string[] = [];
    const queue = new FrameQueue(
      (text) => (log.push(text), text === 'bad' ? Promise.reject(new Error('boom')) : Promise.resolve()),
      (error) => log.push(`error ${(error as Error).message}`),
    );
    queue.push('bad');
    queue.push('next');
    await turn();
    expect(log).toEqual(['bad', 'error boom', 'next']);
  });

  it('drops the frames not started yet on clear', async () => {
    const { queue, log } = logging(['slow']);
    queue.push('slow');
    queue.push('b');
    expect(queue.pending).toBe(1);
    queue.clear();
    await turn();
    expect(log).toEqual(['start slow']);
  });
});
