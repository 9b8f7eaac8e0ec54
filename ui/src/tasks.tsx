// The Tasks view: every task the client created or learnt about (a tools/call answered with a
// task, tasks/list on legacy, a look-up by id), its status over time, the input it waits for
// (answered here, with the same forms as the dialogs), its result or error, and cancel.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';
import { ToolResult } from './content.js';
import { Elicitation, Sampling, type Input } from './dialogs.js';

type Change = { at: number; status: string; statusMessage?: string };
export type Task = {
  taskId: string;
  toolName?: string;
  origin: 'created' | 'listed';
  era: 'modern' | 'legacy';
  changes: Change[];
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string };
  pollIntervalMs?: number;
  ttlMs?: number | null;
};

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const time = (at: number) => new Date(at).toISOString().slice(11, 23);
const statusOf = (task: Task) => task.changes.at(-1)?.status ?? 'unknown';

/** The tasks (newest first) and the task inputs waiting for the person, kept from the events. */
function useTasks() {
  const [tasks, setTasks] = useState<Task[]>([]);
  const [inputs, setInputs] = useState<Input[]>([]);
  useEffect(() => {
    void api<{ tasks: Task[]; inputs: Input[] }>('tasks').then(
      (r) => {
        setTasks(r.tasks);
        setInputs(r.inputs);
      },
      () => undefined,
    );
  }, []);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'task') {
        const task = e.task as Task;
        setTasks((list) => [task, ...list.filter((t) => t.taskId !== task.taskId)]);
      }
      if (e.type === 'input' && typeof e.taskId === 'string')
        setInputs((list) => [...list, e as unknown as Input]);
      if (e.type === 'input-done') setInputs((list) => list.filter((i) => i.id !== e.id));
      if (e.type === 'watch-reset') {
        setTasks([]);
        setInputs([]);
      }
    }, []),
  );
  return { tasks, inputs };
}

function Timeline({ task }: { task: Task }) {
  return (
    <table class="net timeline" data-test="task-timeline">
      <thead>
        <tr>
          <th>time</th>
          <th>status</th>
          <th>message</th>
        </tr>
      </thead>
      <tbody>
        {task.changes.map((c, i) => (
          <tr key={i} data-test="task-change" data-status={c.status}>
            <td>{time(c.at)}</td>
            <td>
              <span class="tag">{c.status}</span>
            </td>
            <td>{c.statusMessage ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TaskPanel({ task, inputs }: { task: Task; inputs: Input[] }) {
  const [error, setError] = useState<string | undefined>();
  const status = statusOf(task);
  const run = (route: string) => {
    setError(undefined);
    api(route, { taskId: task.taskId }).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <section class="panel" data-test="task-panel" data-status={status}>
      <h3>
        {task.toolName || 'task'}{' '}
        <span class="tag" data-test="task-status">
          {status}
        </span>
      </h3>
      <p class="muted">
        <code data-test="task-id">{task.taskId}</code> · {task.era} ·{' '}
        {task.origin === 'created' ? 'created by this client' : 'learnt from the server'}
        {task.pollIntervalMs !== undefined && ` · poll every ${task.pollIntervalMs} ms`}
      </p>
      <div class="buttons">
        <button type="button" data-test="task-refresh" onClick={() => run('task-get')}>
          Refresh (tasks/get)
        </button>
        {!TERMINAL.has(status) && (
          <button type="button" data-test="task-cancel" onClick={() => run('task-cancel')}>
            Cancel task
          </button>
        )}
      </div>
      {error && (
        <div class="result error" data-test="task-error">
          {error}
        </div>
      )}
      <Timeline task={task} />
      {inputs.map((input) => (
        <div key={input.id} class="task-input" data-test="task-input">
          <h4>The task asks {input.kind === 'sampling' ? 'for a model reply' : 'you'}</h4>
          {input.kind === 'sampling' ? <Sampling input={input} /> : <Elicitation input={input} />}
        </div>
      ))}
      {task.result && <ToolResult result={task.result} check="none" />}
      {task.error && (
        <div class="result error" data-test="task-failure">
          {task.error.code !== undefined && `${task.error.code} `}
          {task.error.message}
        </div>
      )}
    </section>
  );
}

/** The Tasks tab; `era` decides whether tasks/list exists (legacy only). */
export function TasksView({ era }: { era: string | undefined }) {
  const { tasks, inputs } = useTasks();
  const [selected, setSelected] = useState<string | undefined>();
  const [lookUp, setLookUp] = useState('');
  const [error, setError] = useState<string | undefined>();
  const task = tasks.find((t) => t.taskId === selected) ?? tasks[0];
  const act = (route: string, body: Record<string, unknown> = {}) => {
    setError(undefined);
    api<Task | undefined>(route, body).then(
      (found) => found && 'taskId' in found && setSelected(found.taskId),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <section data-test="tasks">
      <form
        class="buttons"
        onSubmit={(e) => {
          e.preventDefault();
          if (lookUp.trim()) act('task-get', { taskId: lookUp });
        }}
      >
        {era === 'legacy' && (
          <button type="button" data-test="tasks-list" onClick={() => act('tasks-list')}>
            List the server's tasks (tasks/list)
          </button>
        )}
        <input
          data-test="task-lookup"
          aria-label="task id"
          placeholder="task id (tasks/get)"
          value={lookUp}
          onInput={(e) => setLookUp(e.currentTarget.value)}
        />
        <button type="submit" data-test="task-lookup-go">
          Look up
        </button>
      </form>
      {error && (
        <div class="result error" data-test="tasks-error">
          {error}
        </div>
      )}
      {tasks.length === 0 && (
        <p class="muted">
          No task yet: call a tool with “run as a task” ticked
          {era === 'legacy' ? ', list the server’s tasks' : ''}, or look one up by its id.
        </p>
      )}
      <div class="split">
        <ul class="list" data-test="task-list" role="listbox" aria-label="tasks">
          {tasks.map((t) => (
            <li
              key={t.taskId}
              role="option"
              tabIndex={0}
              aria-selected={t === task}
              class={t === task ? 'selected' : ''}
              data-task={t.taskId}
              data-status={statusOf(t)}
              onClick={() => setSelected(t.taskId)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setSelected(t.taskId)}
            >
              <div>
                <strong>{t.toolName || t.taskId.slice(0, 12)}</strong> <span class="tag">{statusOf(t)}</span>
                {inputs.some((i) => i.taskId === t.taskId) && <span class="tag warn"> input wanted</span>}
                <div class="muted">
                  <code>{t.taskId.slice(0, 24)}</code> {time(t.changes[0]?.at ?? 0)}
                </div>
              </div>
            </li>
          ))}
        </ul>
        {task && (
          <TaskPanel key={task.taskId} task={task} inputs={inputs.filter((i) => i.taskId === task.taskId)} />
        )}
      </div>
    </section>
  );
}

/** The Tasks tab's badge: how many task inputs wait for the person, wherever the page is. */
export function TasksBadge() {
  const [waiting, setWaiting] = useState<string[]>([]);
  useEffect(() => {
    void api<{ inputs: Input[] }>('tasks').then(
      (r) => setWaiting(r.inputs.map((i) => i.id)),
      () => undefined,
    );
  }, []);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'input' && typeof e.taskId === 'string') setWaiting((ids) => [...ids, String(e.id)]);
      if (e.type === 'input-done') setWaiting((ids) => ids.filter((id) => id !== e.id));
    }, []),
  );
  if (waiting.length === 0) return null;
  return (
    <span class="count warn" data-test="tasks-waiting">
      {` (${waiting.length} waiting)`}
    </span>
  );
}
