// The notifications/log pane and the JSON-RPC message history (with timing: a response
// shows how long after its request it arrived). Entries expand and copy.
import { useCallback, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';

const KEEP = 500;

/** A JSON-RPC message to or from the server, or (`channel: 'app'`) to or from an app's view. */
type Frame = { direction: 'in' | 'out'; at: number; message: Record<string, unknown>; channel?: string };
type Note = { at: number; method: string; params: unknown };

function keep<T>(list: T[], item: T): T[] {
  const next = [...list, item];
  return next.length > KEEP ? next.slice(next.length - KEEP) : next;
}

function time(at: number): string {
  return new Date(at).toISOString().slice(11, 23);
}

function Entry(props: { summary: preact.ComponentChildren; value: unknown; cls?: string }) {
  const text = JSON.stringify(props.value, null, 2);
  return (
    <details class={props.cls}>
      <summary>{props.summary}</summary>
      <button type="button" class="copy" onClick={() => void navigator.clipboard?.writeText(text)}>
        copy
      </button>
      <pre>{text}</pre>
    </details>
  );
}

function describeNote(note: Note): string {
  if (note.method !== 'notifications/message') return note.method;
  const p = (note.params ?? {}) as { level?: string; logger?: string; data?: unknown };
  const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
  return `log ${p.level ?? ''}${p.logger ? ` [${p.logger}]` : ''}: ${data}`;
}

/** The notifications and log pane. */
export function NotificationsPane() {
  const [notes, setNotes] = useState<Note[]>([]);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type !== 'notification') return;
      const n = e.notification as { method: string; params?: unknown };
      setNotes((list) => keep(list, { at: Date.now(), method: n.method, params: n.params }));
    }, []),
  );
  return (
    <section class="pane" data-test="notifications">
      <h4>
        Notifications and log <button onClick={() => setNotes([])}>clear</button>
      </h4>
      {notes
        .slice()
        .reverse()
        .map((n, i) => (
          <Entry
            key={notes.length - i}
            value={n.params}
            cls="note"
            summary={
              <>
                <span class="time">{time(n.at)}</span> {describeNote(n)}
              </>
            }
          />
        ))}
    </section>
  );
}

function frameLabel(frame: Frame): string {
  const m = (frame.message ?? {}) as Record<string, unknown>;
  if (typeof m.method === 'string') return `${m.method}${m.id !== undefined ? ` #${String(m.id)}` : ''}`;
  if (m.error !== undefined) return `error #${String(m.id)}`;
  if (m.result !== undefined) return `result #${String(m.id)}`;
  return 'frame';
}

/** Downloads the connection's history as a recording `mcpkit replay` serves (JSON Lines). */
async function exportHistory(): Promise<void> {
  const text = await api<string>('export');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
  link.download = 'session.jsonl';
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The JSON-RPC history pane. */
export function HistoryPane() {
  const [frames, setFrames] = useState<Frame[]>([]);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'frame') setFrames((list) => keep(list, e as unknown as Frame));
    }, []),
  );
  const sentAt = new Map<string, number>();
  const rows = frames.map((f) => {
    const m = (f.message ?? {}) as Record<string, unknown>;
    const id = m.id === undefined ? undefined : `${f.channel ?? ''}${JSON.stringify(m.id)}`;
    const isRequest = typeof m.method === 'string';
    if (id !== undefined && isRequest) sentAt.set(`${f.direction}${id}`, f.at);
    const asked =
      id !== undefined && !isRequest ? sentAt.get(`${f.direction === 'in' ? 'out' : 'in'}${id}`) : undefined;
    return { frame: f, ms: asked === undefined ? undefined : f.at - asked };
  });
  return (
    <section class="pane" data-test="history">
      <h4>
        JSON-RPC history <button onClick={() => setFrames([])}>clear</button>{' '}
        <button data-test="export-history" onClick={() => void exportHistory()}>
          export
        </button>
      </h4>
      {rows
        .slice()
        .reverse()
        .map(({ frame, ms }, i) => (
          <Entry
            key={rows.length - i}
            value={frame.message}
            cls={`frame ${frame.direction}${frame.channel ? ` ${frame.channel}` : ''}`}
            summary={
              <>
                <span class="time">{time(frame.at)}</span> {frame.channel === 'app' ? 'app ' : ''}
                {frame.direction === 'out' ? '→' : '←'} {frameLabel(frame)}
                {ms !== undefined && <span class="muted"> ({ms} ms)</span>}
              </>
            }
          />
        ))}
    </section>
  );
}
