// The Console view: a stdio server's stderr as it comes, the stdout lines that are not
// JSON-RPC (the client skips them), and, once it died, how (exit code or signal). The last
// lines stay after the server is gone, until the next connection.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';

type Line = { at: number; stream: 'stderr' | 'stdout'; text: string };
type Exit = { at: number; code: number | null; signal: string | null; message?: string; requested: boolean };

const KEEP = 1000;

function exitText(exit: Exit): string {
  const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
  return `${exit.requested ? 'stopped by the inspector' : 'the server died'}: ${how}`;
}

/** The console tab. */
export function ConsoleView(props: { stdio: boolean }) {
  const [lines, setLines] = useState<Line[]>([]);
  const [exit, setExit] = useState<Exit | undefined>();
  useEffect(() => {
    void api<{ lines: Line[]; exit?: Exit }>('console').then((c) => {
      setLines(c.lines);
      setExit(c.exit);
    });
  }, []);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'console')
        setLines((list) => {
          const next = [...list, e.line as Line];
          return next.length > KEEP ? next.slice(next.length - KEEP) : next;
        });
      if (e.type === 'server-exit') setExit(e.exit as Exit);
      if (e.type === 'watch-reset') {
        setLines([]);
        setExit(undefined);
      }
    }, []),
  );
  return (
    <section class="console" data-test="console">
      {!props.stdio && (
        <p class="muted">The console shows a stdio server's stderr; this server is reached over HTTP.</p>
      )}
      <pre class="console-lines" data-test="console-lines" tabIndex={0} aria-live="polite">
        {lines.map((l, i) => (
          <div key={i} class={l.stream} data-stream={l.stream}>
            <span class="muted">{new Date(l.at).toISOString().slice(11, 23)} </span>
            {l.stream === 'stdout' && <span class="tag">stdout, not JSON-RPC</span>} {l.text}
          </div>
        ))}
      </pre>
      {exit && (
        <div class={exit.requested ? 'exit' : 'exit error'} data-test="server-exit" role="status">
          {exitText(exit)}
          {exit.message && !exit.requested && <pre>{exit.message}</pre>}
        </div>
      )}
    </section>
  );
}
