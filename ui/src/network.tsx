// The Network view: each HTTP exchange of the connection (method, URL, status, the MCP
// headers, session id, duration, SSE event ids, the error table's class), or each stdio line
// with its direction and size; the era and why it was chosen. Secrets arrive redacted.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';

type Http = {
  kind: 'http';
  id: number;
  at: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  mcp: {
    protocolVersion?: string;
    method?: string;
    name?: string;
    params: Record<string, string>;
    sessionId?: string;
  };
  requestBody?: unknown;
  message?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: unknown;
  durationMs?: number;
  endedMs?: number;
  sseEventIds: string[];
  errorClasses: string[];
  failure?: string;
};
type Line = {
  kind: 'stdio';
  id: number;
  at: number;
  direction: 'in' | 'out';
  bytes: number;
  summary: string;
  errorClasses: string[];
};
export type NetworkEntry = Http | Line;

const KEEP = 2000;

/** The entries, kept in order and replaced by id when an exchange changes. */
function useNetwork(): NetworkEntry[] {
  const [entries, setEntries] = useState<NetworkEntry[]>([]);
  const upsert = useCallback((entry: NetworkEntry) => {
    setEntries((list) => {
      const at = list.findIndex((e) => e.id === entry.id);
      if (at >= 0) return [...list.slice(0, at), entry, ...list.slice(at + 1)];
      const next = [...list, entry];
      return next.length > KEEP ? next.slice(next.length - KEEP) : next;
    });
  }, []);
  useEffect(() => {
    void api<{ entries: NetworkEntry[] }>('network').then((r) => setEntries(r.entries));
  }, []);
  useEvents(
    useCallback(
      (e: AppEvent) => {
        if (e.type === 'network') upsert(e.entry as NetworkEntry);
        if (e.type === 'watch-reset') setEntries([]);
      },
      [upsert],
    ),
  );
  return entries;
}

const time = (at: number) => new Date(at).toISOString().slice(11, 23);
const path = (url: string) => {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
};

function Classes({ names }: { names: string[] }) {
  return (
    <>
      {names.map((n) => (
        <span key={n} class="tag error-class" data-test="error-class">
          {n}
        </span>
      ))}
    </>
  );
}

function HttpDetails({ entry }: { entry: Http }) {
  return (
    <div class="net-details" data-test="net-details">
      <h5>Request headers</h5>
      <pre>{JSON.stringify(entry.requestHeaders, null, 2)}</pre>
      {entry.requestBody !== undefined && <pre>{JSON.stringify(entry.requestBody, null, 2)}</pre>}
      <h5>Response headers</h5>
      <pre>{JSON.stringify(entry.responseHeaders ?? {}, null, 2)}</pre>
      {entry.sseEventIds.length > 0 && (
        <p>SSE event ids: {entry.sseEventIds.map((id) => id || '(none)').join(', ')}</p>
      )}
      {entry.responseBody !== undefined && <pre>{JSON.stringify(entry.responseBody, null, 2)}</pre>}
    </div>
  );
}

function HttpRow(props: { entry: Http; open: boolean; onToggle: () => void }) {
  const e = props.entry;
  const params = Object.entries(e.mcp.params).map(([k, v]) => `${k}=${v}`);
  return (
    <>
      <tr
        data-test="net-row"
        data-kind="http"
        class={e.errorClasses.length > 0 || e.failure ? 'failed' : ''}
        tabIndex={0}
        onClick={props.onToggle}
        onKeyDown={(k) => (k.key === 'Enter' || k.key === ' ') && (k.preventDefault(), props.onToggle())}
      >
        <td>{time(e.at)}</td>
        <td data-col="method">{e.method}</td>
        <td data-col="url" title={e.url}>
          {path(e.url)}
        </td>
        <td data-col="message">{e.message}</td>
        <td data-col="status">{e.status ?? e.failure ?? '…'}</td>
        <td data-col="mcp-method">
          {e.mcp.method}
          {e.mcp.name && <code> {e.mcp.name}</code>}
          {params.length > 0 && <span class="muted"> {params.join(' ')}</span>}
        </td>
        <td data-col="version">{e.mcp.protocolVersion}</td>
        <td data-col="session" title={e.mcp.sessionId}>
          {e.mcp.sessionId?.slice(0, 8)}
        </td>
        <td data-col="duration">
          {e.durationMs === undefined ? '' : `${e.durationMs} ms`}
          {e.endedMs !== undefined && e.endedMs !== e.durationMs && (
            <span class="muted"> / {e.endedMs} ms</span>
          )}
        </td>
        <td data-col="sse">{e.sseEventIds.length > 0 ? `${e.sseEventIds.length} ev` : ''}</td>
        <td data-col="class">
          <Classes names={e.errorClasses} />
        </td>
      </tr>
      {props.open && (
        <tr>
          <td colSpan={11}>
            <HttpDetails entry={e} />
          </td>
        </tr>
      )}
    </>
  );
}

function LineRow({ entry }: { entry: Line }) {
  return (
    <tr data-test="net-row" data-kind="stdio" data-direction={entry.direction}>
      <td>{time(entry.at)}</td>
      <td data-col="direction">{entry.direction === 'out' ? '→ server' : '← server'}</td>
      <td data-col="summary">{entry.summary}</td>
      <td data-col="bytes">{entry.bytes} B</td>
      <td data-col="class">
        <Classes names={entry.errorClasses} />
      </td>
    </tr>
  );
}

/** The network tab. */
export function NetworkView(props: { era?: string; eraReason?: string }) {
  const entries = useNetwork();
  const [open, setOpen] = useState<number | undefined>();
  const http = entries.some((e) => e.kind === 'http');
  return (
    <section class="network" data-test="network">
      <p data-test="era-reason">
        era <span class="tag">{props.era ?? 'not connected'}</span> {props.eraReason}
      </p>
      {entries.length === 0 && <p class="muted">Nothing crossed the connection yet.</p>}
      <div class="net-scroll">
        <table class="net">
          <thead>
            {http ? (
              <tr>
                <th>time</th>
                <th>method</th>
                <th>URL</th>
                <th>JSON-RPC</th>
                <th>status</th>
                <th title="Mcp-Method, Mcp-Name, Mcp-Param-*">Mcp-Method / Name / Param</th>
                <th title="MCP-Protocol-Version">version</th>
                <th>session</th>
                <th>duration</th>
                <th>SSE</th>
                <th>error class</th>
              </tr>
            ) : (
              <tr>
                <th>time</th>
                <th>direction</th>
                <th>message</th>
                <th>size</th>
                <th>error class</th>
              </tr>
            )}
          </thead>
          <tbody>
            {entries.map((e) =>
              e.kind === 'http' ? (
                <HttpRow
                  key={e.id}
                  entry={e}
                  open={open === e.id}
                  onToggle={() => setOpen(open === e.id ? undefined : e.id)}
                />
              ) : (
                <LineRow key={e.id} entry={e} />
              ),
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
