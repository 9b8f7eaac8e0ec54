/**
 * The Tasks view's board (tasks.ts) reads tasks off a connection's frames on both eras, and
 * keeps bounds against a hostile server: at most 200 tasks, 100 status changes per task,
 * status messages cut at 2000 characters.
 */
import { describe, expect, it } from 'vitest';
import { TaskBoard, type InspectedTask } from './tasks.js';

let at = 0;
const out = (id: number, method: string, params: object = {}) => ({
  direction: 'out' as const,
  at: ++at,
  message: { jsonrpc: '2.0', id, method, params },
});
const back = (id: number, result: object) => ({
  direction: 'in' as const,
  at: ++at,
  message: { jsonrpc: '2.0', id, result },
});

describe('TaskBoard', () => {
  it('learns a modern task from tools/call and follows it through tasks/get to its result', () => {
    const seen: InspectedTask[] = [];
    const board = new TaskBoard((task) => seen.push(task));
    board.frame(out(1, 'tools/call', { name: 'slow' }));
    board.frame(back(1, { resultType: 'task', taskId: 't1', status: 'working', pollIntervalMs: 500 }));
    board.frame(out(2, 'tasks/get', { taskId: 't1' }));
    board.frame(back(2, { taskId: 't1', status: 'completed', result: { content: [] } }));
    const task = board.get('t1');
    expect(task).toMatchObject({ toolName: 'slow', origin: 'created', era: 'modern', pollIntervalMs: 500 });
    expect(task?.changes.map((c) => c.status)).toEqual(['working', 'completed']);
    expect(task?.result).toEqual({ content: [] });
    expect(seen.length).toBe(2);
  });

  it('learns legacy tasks from notifications, tasks/list and tasks/result', () => {
    const board = new TaskBoard(() => undefined);
    board.reset('legacy');
    board.frame({
      direction: 'in',
      at: ++at,
      message: {
        jsonrpc: '2.0',
        method: 'notifications/tasks/status',
        params: { taskId: 'a', status: 'working' },
      },
    });
    board.frame(out(1, 'tools/call', { name: 'research', task: {} }));
    board.frame(back(1, { task: { taskId: 'a', status: 'working', pollInterval: 1000 } }));
    board.frame(out(2, 'tasks/list'));
    board.frame(back(2, { tasks: [{ taskId: 'b', status: 'completed' }] }));
    board.frame(out(3, 'tasks/result', { taskId: 'a' }));
    board.frame(back(3, { content: [{ type: 'text', text: 'done' }] }));
    expect(board.get('a')).toMatchObject({ origin: 'created', era: 'legacy', pollIntervalMs: 1000 });
    expect(board.get('a')?.result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(board.get('b')).toMatchObject({ origin: 'listed' });
    expect(board.list().map((t) => t.taskId)).toEqual(['b', 'a']);
  });

  it('keeps at most 200 tasks, 100 changes per task and 2000 characters of a status message', () => {
    const board = new TaskBoard(() => undefined);
    const tasks = Array.from({ length: 1000 }, (_, i) => ({ taskId: `t${i}`, status: 'working' }));
    board.frame(out(1, 'tasks/list'));
    board.frame(back(1, { tasks }));
    for (let i = 0; i < 300; i++) {
      board.frame(out(100 + i, 'tasks/get', { taskId: 't0' }));
      board.frame(
        back(100 + i, { taskId: 't0', status: 'working', statusMessage: `${i} ${'x'.repeat(5000)}` }),
      );
    }
    expect(board.list().length).toBeLessThanOrEqual(200);
    const changes = board.get('t0')?.changes ?? [];
    expect(changes.length).toBeLessThanOrEqual(100);
    expect(changes.every((c) => (c.statusMessage?.length ?? 0) <= 2000)).toBe(true);
    expect(changes.at(-1)?.statusMessage?.startsWith('299 ')).toBe(true);
  });
});
