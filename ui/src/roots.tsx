// The roots the client offers (client/roots), one `file://` URI per line.
import { useState } from 'preact/hooks';
import { api } from './api.js';

export type Root = { uri: string; name?: string };

/** The roots tab. */
export function RootsView({ roots, onSaved }: { roots: Root[]; onSaved: (roots: Root[]) => void }) {
  const [text, setText] = useState(roots.map((r) => (r.name ? `${r.uri} ${r.name}` : r.uri)).join('\n'));
  const [error, setError] = useState<string | undefined>();
  const save = async () => {
    const parsed = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .map((l) => {
        const [uri = '', ...name] = l.split(/\s+/);
        return name.length ? { uri, name: name.join(' ') } : { uri };
      });
    const bad = parsed.find((r) => !r.uri.startsWith('file://'));
    if (bad) return setError(`roots are file:// URIs: ${bad.uri}`);
    setError(undefined);
    const state = await api<{ roots: Root[] }>('roots', { roots: parsed });
    onSaved(state.roots);
  };
  return (
    <section class="panel" data-test="roots">
      <p class="muted">
        One root per line: a file:// URI, then an optional name. Servers ask for them with roots/list.
      </p>
      <textarea
        rows={6}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        data-test="roots-text"
      />
      {error && <div class="warn">{error}</div>}
      <button onClick={() => void save()} data-test="roots-save">
        Save roots
      </button>
    </section>
  );
}
