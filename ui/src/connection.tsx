// The connection panel: a stdio command, a Streamable HTTP URL with headers (and its OAuth
// login), or the built-in everything server; the era; then what was negotiated.
import { useEffect, useState } from 'preact/hooks';
import { api, startup } from './api.js';
import { LoginControls, type AuthState } from './login.js';
import type { Settings } from './settings.js';

export type ServerState = {
  connected: boolean;
  era?: string;
  /** Why that era: pinned by the setting, or the outcome of the server/discover probe. */
  eraReason?: string;
  /** How the server is reached. */
  transport?: 'stdio' | 'http';
  protocolVersion?: string;
  serverInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  roots: { uri: string; name?: string }[];
  /** For a Streamable HTTP target: whether it needs a login, and whether one holds. */
  auth?: AuthState;
  /** The client settings in use (settings tab). */
  settings?: Settings;
  /** Why the connection was lost (the server died or could not be reached), while disconnected. */
  lost?: string;
  /** Started with `--config`: the Servers view lists the catalogue. */
  catalog?: boolean;
  /** The server connected to (command line or URL), with a catalogue. */
  server?: string;
};

/** Splits a command line on spaces, keeping quoted parts together. */
function splitCommand(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

function headerRecord(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([^:\s]+)\s*:\s*(.*)$/.exec(line);
    if (match?.[1]) headers[match[1]] = match[2] ?? '';
  }
  return headers;
}

const initial = startup.target as {
  kind: string;
  command?: string;
  args?: string[];
  url?: string;
  headers?: Record<string, string>;
};

function Info({ state }: { state: ServerState }) {
  if (!state.connected) return null;
  const info = state.serverInfo ?? {};
  const icon = (info.icons as { src: string }[] | undefined)?.find((i) => i.src.startsWith('data:'));
  return (
    <div class="info" data-test="server-info">
      <div>
        {icon && <img class="icon" alt="" src={icon.src} />}{' '}
        <strong data-test="server-name">{String(info.title ?? info.name ?? '')}</strong>{' '}
        <code>{String(info.name ?? '')}</code> {String(info.version ?? '')}
      </div>
      <div>
        era{' '}
        <span class="tag" data-test="era" title={state.eraReason}>
          {state.era}
        </span>{' '}
        protocol version{' '}
        <span class="tag" data-test="protocol-version">
          {state.protocolVersion}
        </span>
      </div>
      <details>
        <summary>capabilities</summary>
        <pre>{JSON.stringify(state.capabilities, null, 2)}</pre>
      </details>
      {state.instructions && <p class="instructions">{state.instructions}</p>}
    </div>
  );
}

/** The connection panel; `onState` receives the state after each connect or disconnect. */
export function ConnectionPanel({
  state,
  onState,
}: {
  state: ServerState;
  onState: (s: ServerState) => void;
}) {
  const [kind, setKind] = useState(initial.kind);
  const [command, setCommand] = useState(
    [initial.command, ...(initial.args ?? [])].filter(Boolean).join(' '),
  );
  const [url, setUrl] = useState(initial.url ?? 'http://127.0.0.1:3000/mcp');
  const [headers, setHeaders] = useState(
    Object.entries(initial.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
  const [era, setEra] = useState(startup.era);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (state.connected) setError(undefined);
  }, [state.connected]);
  // A deep link's era (#era=legacy) wins over the CLI's: reconnect with it once.
  const [linked, setLinked] = useState(startup.linkedEra);
  useEffect(() => {
    if (!state.connected || !linked) return;
    setLinked(undefined);
    const wanted = linked === 'modern' || linked === 'legacy' ? linked : undefined;
    if (wanted && state.era !== wanted)
      void api<ServerState>('connect', { target: target(), era: wanted }).then(onState, (err: unknown) =>
        setError(err instanceof Error ? err.message : String(err)),
      );
  }, [state.connected]);
  const target = (clientId = '') => {
    const [cmd = '', ...args] = splitCommand(command);
    if (kind === 'http') return { kind, url, headers: headerRecord(headers), clientId };
    return kind === 'stdio' ? { kind, command: cmd, args } : { kind };
  };
  const connect = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onState(await api<ServerState>('connect', { target: target(), era }));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      // The failure may have changed what the panel shows (a server that needs a login).
      onState(await api<ServerState>('state').catch(() => state));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="connection" data-test="connection" onSubmit={(e) => void connect(e)}>
      <select value={kind} data-test="target-kind" onChange={(e) => setKind(e.currentTarget.value)}>
        <option value="builtin">built-in everything server</option>
        <option value="stdio">stdio command</option>
        <option value="http">Streamable HTTP URL</option>
      </select>
      {kind === 'stdio' && (
        <input
          class="wide"
          data-test="command"
          placeholder="node server.js --flag"
          value={command}
          onInput={(e) => setCommand(e.currentTarget.value)}
        />
      )}
      {kind === 'http' && (
        <input class="wide" data-test="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      )}
      {kind === 'http' && (
        <textarea
          rows={2}
          data-test="headers"
          placeholder="Authorization: Bearer …"
          value={headers}
          onInput={(e) => setHeaders(e.currentTarget.value)}
        />
      )}
      <select value={era} data-test="era-select" onChange={(e) => setEra(e.currentTarget.value)}>
        <option value="auto">era: auto</option>
        <option value="modern">era: modern</option>
        <option value="legacy">era: legacy</option>
      </select>
      <button type="submit" disabled={busy} data-test="connect">
        {busy ? 'Connecting…' : state.connected ? 'Reconnect' : 'Connect'}
      </button>
      {state.connected && (
        <button type="button" onClick={() => void api<ServerState>('disconnect').then(onState)}>
          Disconnect
        </button>
      )}
      {error && (
        <div class="result error" data-test="connect-error">
          {error}
        </div>
      )}
      {kind === 'http' && (
        <LoginControls
          auth={state.auth}
          request={(clientId) => ({ target: target(clientId), era })}
          onState={(s) => onState(s as ServerState)}
        />
      )}
      <Info state={state} />
    </form>
  );
}
