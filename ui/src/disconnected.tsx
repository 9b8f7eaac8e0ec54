// The disconnected state: shown when the server died (stdio) or could not be reached (HTTP),
// with the reason and a button that connects again to the same server with the same era.
// The Console keeps the server's last lines.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import type { ServerState } from './connection.js';

/** The banner, while the connection is lost. */
export function Disconnected(props: { state: ServerState; onState: (state: ServerState) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  if (props.state.connected || !props.state.lost) return null;
  const reconnect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      props.onState(await api<ServerState>('reconnect'));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="result error disconnected" role="alert" data-test="disconnected">
      <strong>Disconnected.</strong> <span data-test="lost-reason">{props.state.lost}</span>{' '}
      <button type="button" data-test="reconnect" disabled={busy} onClick={() => void reconnect()}>
        {busy ? 'Reconnecting…' : 'Reconnect'}
      </button>
      <span class="muted"> The Console keeps the server's last lines.</span>
      {error && <div data-test="reconnect-error">{error}</div>}
    </div>
  );
}
