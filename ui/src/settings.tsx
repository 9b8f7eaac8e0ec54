// The client settings (as in the official Inspector): the extensions the client advertises,
// the capabilities it declares, and whether lists load a page at a time. Saving reconnects.
import { useState } from 'preact/hooks';
import { api } from './api.js';

export type Settings = {
  extensions: string[];
  capabilities: { sampling: boolean; elicitationForm: boolean; elicitationUrl: boolean; roots: boolean };
  pagedLists: boolean;
};

const EXTENSIONS: [string, string][] = [
  ['io.modelcontextprotocol/ui', 'MCP Apps (io.modelcontextprotocol/ui): in every request'],
  ['io.modelcontextprotocol/tasks', 'Tasks (io.modelcontextprotocol/tasks): on calls that allow a task'],
];
const CAPABILITIES: [keyof Settings['capabilities'], string][] = [
  ['sampling', 'sampling'],
  ['elicitationForm', 'elicitation, form mode'],
  ['elicitationUrl', 'elicitation, URL mode'],
  ['roots', 'roots'],
];

/** The settings tab; `onState` gets the state after the reconnect. */
export function SettingsView(props: { settings: Settings | undefined; onState: (state: never) => void }) {
  const [draft, setDraft] = useState<Settings | undefined>(props.settings);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (!draft) return <p class="muted">Loading the settings…</p>;
  const toggleExtension = (id: string, on: boolean) =>
    setDraft({
      ...draft,
      extensions: on ? [...draft.extensions, id] : draft.extensions.filter((e) => e !== id),
    });
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onState((await api('settings', { settings: draft })) as never);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="settings panel" data-test="settings" onSubmit={(e) => void save(e)}>
      <fieldset>
        <legend>Extensions to advertise</legend>
        {EXTENSIONS.map(([id, label]) => (
          <label key={id} class="check">
            <input
              type="checkbox"
              data-test={`ext-${id}`}
              checked={draft.extensions.includes(id)}
              onChange={(e) => toggleExtension(id, e.currentTarget.checked)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Capabilities to declare</legend>
        {CAPABILITIES.map(([key, label]) => (
          <label key={key} class="check">
            <input
              type="checkbox"
              data-test={`cap-${key}`}
              checked={draft.capabilities[key]}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  capabilities: { ...draft.capabilities, [key]: e.currentTarget.checked },
                })
              }
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Lists</legend>
        <label class="check">
          <input
            type="checkbox"
            data-test="paged-lists"
            checked={draft.pagedLists}
            onChange={(e) => setDraft({ ...draft, pagedLists: e.currentTarget.checked })}
          />{' '}
          one page at a time (the server's page size), with “Load more”
        </label>
      </fieldset>
      <p class="muted">The era is chosen beside the server above. Saving reconnects to the server.</p>
      <button type="submit" data-test="settings-save" disabled={busy}>
        {busy ? 'Reconnecting…' : 'Save and reconnect'}
      </button>
      {error && (
        <div class="result error" data-test="settings-error">
          {error}
        </div>
      )}
    </form>
  );
}
