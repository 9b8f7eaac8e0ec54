// The Servers view (`--config FILE`): the catalogue's servers with their transport, connect
// and disconnect each (the era it speaks once connected), a search over the tools of every
// connected server, and Open, which shows a server in the other views.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import type { ServerState } from './connection.js';

type Row = {
  name: string;
  transport: 'stdio' | 'http' | 'unsupported';
  where: string;
  note?: string;
  status: 'disconnected' | 'connecting' | 'connected' | 'failed';
  era?: string;
  protocolVersion?: string;
  tools?: number;
  truncated?: boolean;
  error?: string;
};
type Hit = { server: string; tool: string; title?: string; description?: string };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The catalogue; `onOpen` receives the state once a server is opened in the views. */
export function ServersView(props: { current?: string | undefined; onOpen: (state: ServerState) => void }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [busy, setBusy] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Hit[] | undefined>();
  useEffect(() => {
    void api<Row[]>('catalog').then(setRows, (e: unknown) => setError(message(e)));
  }, []);
  const act = async (name: string, route: string) => {
    setBusy((b) => [...b, name]);
    setError(undefined);
    try {
      if (route === 'catalog-open') props.onOpen(await api<ServerState>(route, { name }));
      else setRows(await api<Row[]>(route, { name }));
    } catch (e) {
      setError(`${name}: ${message(e)}`);
    } finally {
      setBusy((b) => b.filter((n) => n !== name));
    }
  };
  const search = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      setHits(await api<Hit[]>('catalog-search', { query, limit: 20 }));
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <section data-test="servers">
      {error && (
        <div class="result error" role="alert" data-test="servers-error">
          {error}
        </div>
      )}
      <table class="net catalog">
        <thead>
          <tr>
            <th>server</th>
            <th>transport</th>
            <th>command or URL</th>
            <th>status</th>
            <th>era</th>
            <th>tools</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const waiting = busy.includes(row.name) || row.status === 'connecting';
            const connected = row.status === 'connected';
            return (
              <tr key={row.name} data-test="server-row" data-server={row.name} data-status={row.status}>
                <td data-col="name">
                  {row.name}
                  {props.current === row.where && <span class="tag"> open</span>}
                </td>
                <td data-col="transport">{row.transport}</td>
                <td data-col="where" title={row.where}>
                  <code>{row.where}</code>
                </td>
                <td data-col="status" title={row.error ?? row.note}>
                  {waiting ? 'connecting…' : row.status}
                  {row.error && <div class="muted">{row.error}</div>}
                  {row.note && <div class="muted">{row.note}</div>}
                </td>
                <td data-col="era">
                  {row.era ?? ''}
                  {row.protocolVersion && <div class="muted">{row.protocolVersion}</div>}
                </td>
                <td data-col="tools">
                  {row.tools ?? ''}
                  {row.truncated ? '+' : ''}
                </td>
                <td class="actions">
                  {row.transport !== 'unsupported' && (
                    <>
                      <button
                        type="button"
                        data-test={connected ? 'server-disconnect' : 'server-connect'}
                        disabled={waiting}
                        onClick={() =>
                          void act(row.name, connected ? 'catalog-disconnect' : 'catalog-connect')
                        }
                      >
                        {connected ? 'Disconnect' : 'Connect'}
                      </button>{' '}
                      <button
                        type="button"
                        data-test="server-open"
                        disabled={waiting}
                        onClick={() => void act(row.name, 'catalog-open')}
                      >
                        Open
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <form class="search" data-test="catalog-search" onSubmit={(e) => void search(e)}>
        <label>
          Search the tools of the connected servers{' '}
          <input
            data-test="catalog-query"
            value={query}
            placeholder="e.g. add numbers"
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </label>{' '}
        <button type="submit">Search</button>
      </form>
      {hits && hits.length === 0 && (
        <p class="muted">No tool matches (only connected servers are searched).</p>
      )}
      {hits && hits.length > 0 && (
        <ol class="hits" data-test="catalog-hits">
          {hits.map((hit) => (
            <li
              key={`${hit.server}/${hit.tool}`}
              data-test="catalog-hit"
              data-server={hit.server}
              data-hit-tool={hit.tool}
            >
              <button type="button" onClick={() => void act(hit.server, 'catalog-open')}>
                {hit.server}
              </button>{' '}
              <strong>{hit.title ?? hit.tool}</strong> <code>{hit.tool}</code>
              {hit.description && <span class="muted"> — {hit.description}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
