// The tools view: the list (titles, descriptions, annotations, icons), a call form generated
// from the selected tool's inputSchema, live progress with cancel, and the rendered result.
import { useCallback, useRef, useState } from 'preact/hooks';
import { api, ApiError, linkTo, startup, type AppEvent } from './api.js';
import { useEvents } from './bus.js';
import { ToolResult } from './content.js';
import { SchemaForm } from './schema-form.js';

export type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: { src: string; mimeType?: string }[];
  /** Legacy (2025-11-25): whether the tool runs as a task. */
  execution?: { taskSupport?: 'required' | 'optional' | 'forbidden' };
};

type Progress = { progress: number; total?: number; message?: string };
/** A result, or an error with, for a refused result, the result as the server sent it. */
type Outcome =
  | { result: Record<string, unknown> }
  | { error: string; received?: Record<string, unknown> }
  | { task: { taskId: string } };

function failure(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  const data = error instanceof ApiError ? (error.data as { received?: unknown } | undefined) : undefined;
  const received = data?.received;
  return received !== null && typeof received === 'object'
    ? { error: message, received: received as Record<string, unknown> }
    : { error: message };
}

function Icon({ tool }: { tool: Tool }) {
  const icon = tool.icons?.find((i) => i.src.startsWith('data:'));
  return icon ? <img class="icon" alt="" src={icon.src} /> : <span class="icon" />;
}

function Annotations({ annotations }: { annotations: Record<string, unknown> | undefined }) {
  if (!annotations) return null;
  return (
    <span class="annotations">
      {Object.entries(annotations).map(([k, v]) => (
        <span key={k} class="tag">
          {v === true ? k : `${k}: ${String(v)}`}
        </span>
      ))}
    </span>
  );
}

function ToolList(props: { tools: Tool[]; selected?: string; onSelect: (name: string) => void }) {
  return (
    <ul class="list" data-test="tool-list">
      {props.tools.map((t) => (
        <li
          key={t.name}
          class={t.name === props.selected ? 'selected' : ''}
          data-tool={t.name}
          onClick={() => props.onSelect(t.name)}
        >
          <Icon tool={t} />
          <div>
            <strong>{t.title ?? t.name}</strong> {t.title && <code>{t.name}</code>}
            <div class="muted">{t.description}</div>
            <Annotations annotations={t.annotations} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function useCall(tool: Tool) {
  const [callId, setCallId] = useState<string | undefined>();
  const [progress, setProgress] = useState<Progress | undefined>();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  // Progress can arrive before the next render: the listener reads the call id from a ref.
  const current = useRef<string | undefined>(undefined);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'progress' && e.callId === current.current) setProgress(e as unknown as Progress);
    }, []),
  );
  const call = async (args: Record<string, unknown>, asTask: boolean) => {
    const id = crypto.randomUUID();
    current.current = id;
    setCallId(id);
    setProgress(undefined);
    setOutcome(undefined);
    try {
      const result = await api<Record<string, unknown>>('call', {
        callId: id,
        name: tool.name,
        arguments: args,
        task: asTask,
      });
      const task = result.task as { taskId?: unknown } | undefined;
      setOutcome(asTask && typeof task?.taskId === 'string' ? { task: { taskId: task.taskId } } : { result });
    } catch (error) {
      setOutcome(failure(error));
    } finally {
      setCallId(undefined);
    }
  };
  const cancel = () => callId && void api('cancel', { callId });
  return { running: callId !== undefined, progress, outcome, call, cancel };
}

function ToolPanel({ tool, initial }: { tool: Tool; initial?: Record<string, unknown> | undefined }) {
  const { running, progress, outcome, call, cancel } = useCall(tool);
  const support = tool.execution?.taskSupport;
  const [asTask, setAsTask] = useState(support === 'required');
  return (
    <section class="panel" data-test="tool-panel">
      <h3>{tool.title ?? tool.name}</h3>
      <p class="muted">{tool.description}</p>
      <SchemaForm
        schema={tool.inputSchema}
        submitLabel="Call"
        onSubmit={(args) => void call(args, asTask)}
        testId="call-form"
        initial={initial}
      />
      <label class="check" title="Allow the server to answer with a task (Tasks view)">
        <input
          type="checkbox"
          data-test="as-task"
          checked={asTask}
          disabled={support === 'forbidden'}
          onChange={(e) => setAsTask(e.currentTarget.checked)}
        />{' '}
        run as a task{support ? ` (the tool says: ${support})` : ''}
      </label>
      {running && (
        <div class="running" data-test="running">
          calling…{' '}
          {progress && (
            <span data-test="progress">
              <progress value={progress.progress} max={progress.total ?? undefined} /> {progress.progress}
              {progress.total !== undefined && ` / ${progress.total}`} {progress.message}
            </span>
          )}{' '}
          <button type="button" data-test="cancel" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {outcome && 'error' in outcome && (
        <div class="result error" data-test="call-error">
          {outcome.error}
        </div>
      )}
      {outcome && 'error' in outcome && outcome.received && (
        <ToolResult result={outcome.received} check="mismatch" />
      )}
      {outcome && 'task' in outcome && (
        <div class="result" data-test="task-created">
          The server answered with task <code>{outcome.task.taskId}</code>: follow it in the Tasks tab.
        </div>
      )}
      {outcome && 'result' in outcome && (
        <ToolResult result={outcome.result} check={tool.outputSchema ? 'match' : 'none'} />
      )}
    </section>
  );
}

/** The tools tab. */
export function ToolsView({ tools }: { tools: Tool[] }) {
  // A deep link opens its tool with its arguments (api.ts); picking another tool updates the link.
  const [selected, setSelected] = useState<string | undefined>(startup.tool);
  const tool = tools.find((t) => t.name === selected);
  const select = (name: string) => {
    setSelected(name);
    linkTo(name);
  };
  const initial = tool && tool.name === startup.tool ? startup.args : undefined;
  return (
    <div class="split">
      <ToolList tools={tools} selected={selected} onSelect={select} />
      {tool ? <ToolPanel key={tool.name} tool={tool} initial={initial} /> : <p class="muted">Pick a tool.</p>}
    </div>
  );
}
