// The login part of the connection panel, for a Streamable HTTP target that needs
// authorization: Log in (the OAuth flow runs in the CLI process; the authorization server's
// page opens in a new tab and comes back to the inspector's /callback), the login state and
// Log out. The page never sees a token: only the authorization URL and the granted scopes.
import { useCallback, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';

/** What the CLI says about authorization for the current HTTP target. */
export type AuthState = { required: boolean; loggedIn: boolean; scopes?: string[]; expiresAt?: number };

interface Props {
  auth: AuthState | undefined;
  /** The target and era as the panel holds them now (with the client id typed here). */
  request: (clientId: string) => Record<string, unknown>;
  onState: (state: unknown) => void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function LoggedIn({ auth, onLogout }: { auth: AuthState; onLogout: () => void }) {
  const expires = auth.expiresAt ? new Date(auth.expiresAt).toLocaleTimeString() : undefined;
  return (
    <span class="login" data-test="login-state">
      <span class="tag">logged in</span> {auth.scopes?.length ? `scopes: ${auth.scopes.join(' ')}` : ''}
      {expires && ` · token expires ${expires}`}{' '}
      <button type="button" data-test="logout" onClick={onLogout}>
        Log out
      </button>
    </span>
  );
}

/** Log in / waiting / logged in, with errors; nothing when the target needs no authorization. */
export function LoginControls({ auth, request, onState }: Props) {
  const [clientId, setClientId] = useState('');
  const [waiting, setWaiting] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  // A request that met a challenge (more scopes, an expired login) waits on this URL.
  const [asked, setAsked] = useState<string | undefined>();
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'login') {
        setWaiting(undefined);
        setError(String(e.error));
      }
      if (e.type === 'authorize') setAsked(String(e.url));
      if (e.type === 'state' && (e.state as { connected?: boolean }).connected) {
        setWaiting(undefined);
        setAsked(undefined);
      }
    }, []),
  );
  const login = async () => {
    setError(undefined);
    // Opened within the click (so no popup blocker stops it), pointed at the server below.
    const tab = window.open('', '_blank');
    try {
      const answer = await api<{ authorizationUrl: string }>('login', request(clientId));
      if (tab) {
        tab.opener = null;
        tab.location.href = answer.authorizationUrl;
      }
      setWaiting(answer.authorizationUrl);
    } catch (err) {
      tab?.close();
      setError(message(err));
    }
  };
  const logout = async () => {
    setError(undefined);
    setWaiting(undefined);
    onState(await api('logout'));
  };
  if (!auth?.required && !auth?.loggedIn && !waiting && !error && !asked) return null;
  return (
    <div class="login-row" data-test="login">
      {auth?.loggedIn ? (
        <LoggedIn auth={auth} onLogout={() => void logout().catch((e: unknown) => setError(message(e)))} />
      ) : (
        <span class="login">
          <span class="warn">This server needs authorization.</span>{' '}
          <input
            data-test="client-id"
            placeholder="OAuth client id (optional)"
            value={clientId}
            onInput={(e) => setClientId(e.currentTarget.value)}
          />{' '}
          <button type="button" data-test="login-button" onClick={() => void login()}>
            {waiting ? 'Log in again' : 'Log in'}
          </button>
        </span>
      )}
      {waiting && !auth?.loggedIn && (
        <span class="muted" data-test="login-waiting">
          {' '}
          Waiting for the authorization server…{' '}
          <a href={waiting} target="_blank" rel="noopener noreferrer">
            open its page
          </a>
        </span>
      )}
      {asked && (
        <div class="result" data-test="authorize">
          The server asks for more authorization; the request waits.{' '}
          <button
            type="button"
            data-test="authorize-button"
            onClick={() => {
              window.open(asked, '_blank', 'noopener');
              setAsked(undefined);
            }}
          >
            Authorize in a new tab
          </button>
        </div>
      )}
      {error && (
        <div class="result error" data-test="login-error">
          {error}
        </div>
      )}
    </div>
  );
}
