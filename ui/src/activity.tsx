// The notifications/log pane and the JSON-RPC message history (with timing: a response
// shows how long after its request it arrived). Entries expand and copy. The history saves
// as a recording, and a recording file opens in it read-only, with its replay command.
import { useCallback, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';
import { download } from './download.js';

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

/** The file name a saved recording gets. */
const SAVED = 'session.jsonl';

/** Downloads the connection's history as a recording `mcpkit replay` serves (JSON Lines). */
async function exportHistory(): Promise<void> {
  download(await api<string>('export'), SAVED, 'application/jsonl');
}

/** A recording opened from a file, as the CLI process read it. */
type Recording = {
  header: { transport: string; server: string; recordedAt: string };
  messages: { at: number; from: 'client' | 'server'; message: Record<string, unknown> }[];
  total: number;
  replay: string[];
  file: string;
};

/** The recording's messages as history frames (client → out, server → in). */
function recordedFrames(recording: Recording): Frame[] {
  const start = Date.parse(recording.header.recordedAt) || 0;
  return recording.messages.map((m) => ({
    direction: m.from === 'client' ? 'out' : 'in',
    at: start + m.at,
    message: m.message,
  }));
}

/** The opened recording's header, replay commands and a way back to the live history. */
function RecordingBanner(props: { recording: Recording; onClose: () => void }) {
  const { header, total, messages, replay, file } = props.recording;
  return (
    <div class="recording" data-test="recording" role="status">
      <div>
        <strong>Recording {file}</strong> (read-only): {header.transport} <code>{header.server}</code>,{' '}
        {header.recordedAt}, {total} messages
        {total > messages.length ? `, the first ${messages.length} shown` : ''}{' '}
        <button type="button" data-test="close-recording" onClick={props.onClose}>
          back to live
        </button>
      </div>
      <ReplayCommands lines={replay} />
    </div>
  );
}

function ReplayCommands(props: { lines: string[] }) {
  return (
    <div class="muted" data-test="replay-commands">
      Serve it as a mock server:{' '}
      {props.lines.map((line) => (
        <code key={line} data-test="replay-command">
          {line}
        </code>
      ))}
    </div>
  );
}

/** Reads a recording file through the CLI process (the record format's own parser). */
async function openRecording(input: HTMLInputElement): Promise<Recording> {
  const file = input.files?.[0];
  input.value = '';
  if (!file) throw new Error('no file chosen');
  const opened = await api<Omit<Recording, 'file'>>('recording', {
    text: await file.text(),
    fileName: file.name,
  });
  return { ...opened, file: file.name };
}

/** The JSON-RPC history pane; or, while one is open, a recording's messages. */
export function HistoryPane() {
  const [live, setFrames] = useState<Frame[]>([]);
  const [recording, setRecording] = useState<Recording | undefined>();
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | undefined>();
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'frame') setFrames((list) => keep(list, e as unknown as Frame));
    }, []),
  );
  const frames = recording ? recordedFrames(recording) : live;
  const save = () =>
    void exportHistory().then(
      () => setSaved(true),
      (e: unknown) => setError(String(e)),
    );
  const open = (input: HTMLInputElement) =>
    void openRecording(input).then(
      (r) => (setError(undefined), setRecording(r)),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
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
        JSON-RPC history{' '}
        <button disabled={recording !== undefined} onClick={() => setFrames([])}>
          clear
        </button>{' '}
        <button data-test="export-history" disabled={recording !== undefined} onClick={save}>
          save recording
        </button>{' '}
        <label class="file-button">
          open recording
          <input
            type="file"
            accept=".jsonl,.json,application/jsonl"
            data-test="open-recording"
            onChange={(e) => open(e.currentTarget)}
          />
        </label>
      </h4>
      {error && (
        <div class="result error" role="alert" data-test="recording-error">
          {error}
        </div>
      )}
      {saved && !recording && (
        <ReplayCommands lines={[`mcpkit replay ${SAVED}`, `mcpkit replay ${SAVED} --port 0`]} />
      )}
      {recording && <RecordingBanner recording={recording} onClose={() => setRecording(undefined)} />}
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
