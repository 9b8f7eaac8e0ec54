// The Apps tab (MCP Apps): the tools that come with a view, a form for the call's
// arguments, and the open view in a sandboxed iframe on the sandbox origin. The page only
// relays: the proxy's messages go to the CLI, which answers, refuses and records them; what
// the CLI sends the view arrives as `app-out` events. Messages, context updates, logs and
// refusals from the view are listed under it.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';
import { SchemaForm } from './schema-form.js';

type AppTool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  ui: { resourceUri?: string; visibility: string[] };
};

type Opened = {
  viewId: string;
  resourceUri: string;
  sandboxUrl: string;
  html: string;
  csp: string;
  ui: { csp?: unknown; permissions?: unknown; prefersBorder?: boolean };
};

type LogEntry = { kind: string; text: string };

const describe = (e: AppEvent): LogEntry | undefined => {
  const json = (v: unknown) => JSON.stringify(v);
  if (e.type === 'app-message') return { kind: 'message', text: `ui/message ${json(e.params)}` };
  if (e.type === 'app-context') return { kind: 'context', text: `ui/update-model-context ${json(e.params)}` };
  if (e.type === 'app-log') return { kind: 'log', text: `log ${json(e.params)}` };
  if (e.type === 'app-refused') return { kind: 'refused', text: `refused: ${String(e.reason)}` };
  if (e.type === 'app-closed') return { kind: 'closed', text: 'view closed' };
  return undefined;
};

function useView(opened: Opened | undefined) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [height, setHeight] = useState(320);
  const origin = opened ? new URL(opened.sandboxUrl).origin : '';
  useEffect(() => {
    setLog([]);
    if (!opened) return;
    // One relay at a time, so the CLI receives the view's messages in the order posted
    // (concurrent requests could overtake each other: a stale size-changed applied last).
    let relayed = Promise.resolve();
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return;
      const data = event.data as { method?: unknown } | null;
      if (data?.method === 'ui/notifications/sandbox-proxy-ready') {
        const { csp, permissions } = opened.ui;
        const params = {
          html: opened.html,
          ...(csp ? { csp } : {}),
          ...(permissions ? { permissions } : {}),
        };
        const ready = { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params };
        return frame.current?.contentWindow?.postMessage(ready, origin);
      }
      const message = { viewId: opened.viewId, message: event.data };
      relayed = relayed
        .then(() => api('app-message', message))
        .then(
          () => undefined,
          () => undefined,
        );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [opened]);
  useEvents(
    useCallback(
      (e: AppEvent) => {
        if (!opened || e.viewId !== opened.viewId) return;
        if (e.type === 'app-out') frame.current?.contentWindow?.postMessage(e.message, origin);
        if (e.type === 'app-size' && typeof e.height === 'number') setHeight(Math.max(80, e.height + 16));
        const entry = describe(e);
        if (entry) setLog((l) => [...l.slice(-199), entry]);
      },
      [opened],
    ),
  );
  return { frame, log, height };
}

function AppView({ opened }: { opened: Opened }) {
  const { frame, log, height } = useView(opened);
  return (
    <div data-test="app-view" data-view={opened.viewId}>
      <p class="muted">
        <code>{opened.resourceUri}</code> · CSP <code data-test="app-csp">{opened.csp}</code>
      </p>
      <iframe
        ref={frame}
        data-test="app-frame"
        class={opened.ui.prefersBorder === false ? 'app-frame' : 'app-frame bordered'}
        sandbox="allow-scripts allow-same-origin"
        src={opened.sandboxUrl}
        style={{ height: `${height}px` }}
      />
      <ul class="app-log" data-test="app-log">
        {log.map((entry, i) => (
          <li key={i} class={entry.kind} data-kind={entry.kind}>
            {entry.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

function AppPanel({ tool }: { tool: AppTool }) {
  const [opened, setOpened] = useState<Opened | undefined>();
  const [error, setError] = useState<string | undefined>();
  const open = async (args: Record<string, unknown>) => {
    setError(undefined);
    if (opened) void api('app-close', { viewId: opened.viewId }).catch(() => undefined);
    try {
      setOpened(await api<Opened>('app-open', { name: tool.name, arguments: args }));
    } catch (e) {
      setOpened(undefined);
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section class="panel" data-test="app-panel">
      <h3>{tool.title ?? tool.name}</h3>
      <p class="muted">{tool.description}</p>
      <SchemaForm
        schema={tool.inputSchema}
        submitLabel="Open app"
        onSubmit={(a) => void open(a)}
        testId="app-form"
      />
      {error && (
        <div class="result error" data-test="app-error">
          {error}
        </div>
      )}
      {opened && <AppView key={opened.viewId} opened={opened} />}
    </section>
  );
}

/** The Apps tab: tools with a view that the model may call (app-only tools are the apps' own). */
export function AppsView({ revision }: { revision: unknown }) {
  const [tools, setTools] = useState<AppTool[]>([]);
  const [selected, setSelected] = useState<string | undefined>();
  useEffect(() => {
    // A reload that changed nothing keeps the same objects, so an open form or view stays as it is.
    const keep = (next: AppTool[]) => (prev: AppTool[]) =>
      JSON.stringify(prev) === JSON.stringify(next) ? prev : next;
    void api<AppTool[]>('apps').then(
      (next) => setTools(keep(next)),
      () => setTools([]),
    );
  }, [revision]);
  const shown = tools.filter((t) => t.ui.visibility.includes('model'));
  const tool = shown.find((t) => t.name === selected);
  return (
    <div class="split">
      <ul class="list" data-test="app-list">
        {shown.map((t) => (
          <li
            key={t.name}
            class={t.name === selected ? 'selected' : ''}
            data-app={t.name}
            onClick={() => setSelected(t.name)}
          >
            <strong>{t.title ?? t.name}</strong>
            <div class="muted">{t.description}</div>
          </li>
        ))}
      </ul>
      {tool ? <AppPanel key={tool.name} tool={tool} /> : <p class="muted">Pick a tool with an app.</p>}
    </div>
  );
}
