// The inspector page: connection panel on top, tabs for tools, resources, prompts and roots,
// and the notifications and history panes; server requests open a dialog.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type AppEvent } from './api.js';
import { HistoryPane, NotificationsPane } from './activity.js';
import { useEvents } from './bus.js';
import { ConnectionPanel, type ServerState } from './connection.js';
import { InputDialogs } from './dialogs.js';
import { PromptsView, type Prompt } from './prompts.js';
import { ResourcesView, type Resource, type Template } from './resources.js';
import { RootsView } from './roots.js';
import { ToolsView, type Tool } from './tools.js';
import { AppsView } from './apps.js';
import { NetworkView } from './network.js';
import { ConsoleView } from './console.js';
import { TasksBadge, TasksView } from './tasks.js';
import { SettingsView } from './settings.js';
import { Disconnected } from './disconnected.js';
import { loadPage, LoadMore } from './paged.js';
import { ServersView } from './servers.js';
import { CheckView } from './check.js';

type Lists = { tools: Tool[]; resources: Resource[]; resourceTemplates: Template[]; prompts: Prompt[] };
type Kind = keyof Lists;
const EMPTY: Lists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
/** The list method behind each list, and the tab that shows it. */
const METHOD: Record<Kind, string> = {
  tools: 'tools/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
};
const TAB_OF: Record<Kind, string> = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resources',
  prompts: 'prompts',
};
/** JSON-RPC Method not found: a server that declares a feature may still lack an optional list. */
const METHOD_NOT_FOUND = -32601;
const TABS = [
  'servers',
  'tools',
  'apps',
  'resources',
  'prompts',
  'roots',
  'network',
  'console',
  'check',
] as const;
/** The Tasks view and the client settings, after the other tabs. */
const MORE_TABS = ['tasks', 'settings'] as const;
type Tab = (typeof TABS)[number] | (typeof MORE_TABS)[number];

/** Which lists a notification makes stale. */
const STALE: Record<string, (keyof Lists)[]> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
};

/**
 * The server's lists, reloaded when the connection changes or a notification makes one
 * stale. `loading` holds the kinds asked for on (re)connecting and not answered yet: their
 * tabs say so instead of showing a count of 0 before the server answered.
 */
function useLists(state: ServerState) {
  const [lists, setLists] = useState<Lists>(EMPTY);
  const [missing, setMissing] = useState<Kind[]>([]);
  const [loading, setLoading] = useState<Kind[]>([]);
  // Client settings, paged lists: the cursor of each list's next page.
  const [cursors, setCursors] = useState<Partial<Record<Kind, string>>>({});
  const paged = state.settings?.pagedLists === true;
  const load = useCallback(
    async (kinds: Kind[], more = false) => {
      for (const kind of kinds) {
        let absent = false;
        const failed = (error: unknown) => {
          absent = error instanceof ApiError && error.code === METHOD_NOT_FOUND;
          return [];
        };
        const list = paged
          ? await loadPage<Kind>(kind, more ? cursors[kind] : undefined, setCursors).catch(failed)
          : await api<unknown[]>('list', { kind }).catch(failed);
        setLists((l) => ({ ...l, [kind]: more ? [...(l[kind] as unknown[]), ...list] : list }));
        setLoading((k) => k.filter((other) => other !== kind));
        setMissing((m) => (absent ? [...m.filter((k) => k !== kind), kind] : m.filter((k) => k !== kind)));
      }
    },
    [paged, cursors],
  );
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    // Unknown capabilities (a server that would not say): try every list.
    const caps = state.capabilities ?? { tools: {}, resources: {}, prompts: {} };
    setMissing([]);
    setCursors({});
    if (!state.connected) {
      setLoading([]);
      return setLists(EMPTY);
    }
    const kinds: Kind[] = [
      ...(caps.tools ? (['tools'] as const) : []),
      ...(caps.resources ? (['resources', 'resourceTemplates'] as const) : []),
      ...(caps.prompts ? (['prompts'] as const) : []),
    ];
    setLoading(kinds);
    void load(kinds);
  }, [state]);
  useEvents(
    useCallback((e: AppEvent) => {
      const method = (e.notification as { method?: string } | undefined)?.method ?? '';
      if (e.type === 'notification' && STALE[method]) void latest.current(STALE[method]);
    }, []),
  );
  return { lists, missing, loading, cursors, more: (kinds: Kind[]) => void load(kinds, true) };
}

/** The lists of `tab` the server answered with -32601: shown as missing, the rest as usual. */
function MissingLists(props: { tab: string; missing: Kind[] }) {
  const here = props.missing.filter((kind) => TAB_OF[kind] === props.tab);
  return (
    <>
      {here.map((kind) => (
        <p key={kind} class="muted" data-test={`missing-${kind}`}>
          Missing: the server answered {METHOD[kind]} with -32601 Method not found.
        </p>
      ))}
    </>
  );
}

/** A tab's count, or `(loading…)` until the first answer to its lists since connecting. */
function TabCount(props: { tab: Tab; lists: Lists; loading: Kind[] }) {
  const { tab, lists } = props;
  if (tab !== 'tools' && tab !== 'resources' && tab !== 'prompts') return null;
  if (props.loading.some((kind) => TAB_OF[kind] === tab))
    return (
      <span class="count" data-test={`count-${tab}`} aria-busy="true">
        {' '}
        (loading…)
      </span>
    );
  const count =
    tab === 'resources' ? lists.resources.length + lists.resourceTemplates.length : lists[tab].length;
  return <span class="count" data-test={`count-${tab}`}>{` (${count})`}</span>;
}

/** The whole page. */
export function App() {
  const [state, setState] = useState<ServerState>({ connected: false, roots: [] });
  const [tab, setTab] = useState<Tab>('tools');
  // With a catalogue (--config) the page opens on it, until a server is opened.
  const catalogued = state.catalog === true;
  useEffect(() => {
    if (catalogued && !state.connected) setTab('servers');
  }, [catalogued]);
  const { lists, missing, loading, cursors, more } = useLists(state);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'state') setState(e.state as ServerState);
    }, []),
  );
  return (
    <div class="app">
      <header>
        <h1>mcpkit inspector</h1>
        <ConnectionPanel state={state} onState={setState} />
      </header>
      <nav>
        {[...TABS, ...MORE_TABS]
          .filter((t) => t !== 'servers' || catalogued)
          .map((t) => (
            <button
              key={t}
              class={t === tab ? 'active' : ''}
              data-test={`tab-${t}`}
              onClick={() => setTab(t)}
            >
              {t}
              <TabCount tab={t} lists={lists} loading={loading} />
              {t === 'tasks' && <TasksBadge />}
            </button>
          ))}
      </nav>
      <main>
        <Disconnected state={state} onState={setState} />
        <MissingLists tab={tab} missing={missing} />
        {loading.some((kind) => TAB_OF[kind] === tab) && (
          <p class="muted loading" data-test="loading" aria-busy="true">
            Loading {tab}…
          </p>
        )}
        {tab === 'tools' && <ToolsView tools={lists.tools} />}
        {tab === 'apps' && <AppsView revision={lists.tools} />}
        {tab === 'resources' && (
          <ResourcesView resources={lists.resources} templates={lists.resourceTemplates} />
        )}
        {tab === 'prompts' && <PromptsView prompts={lists.prompts} />}
        {tab === 'roots' && (
          <RootsView roots={state.roots} onSaved={(roots) => setState({ ...state, roots })} />
        )}
        {tab === 'network' && <NetworkView era={state.era} eraReason={state.eraReason} />}
        {tab === 'console' && <ConsoleView stdio={state.transport !== 'http'} />}
        {tab === 'tasks' && <TasksView era={state.era} />}
        {tab === 'settings' && <SettingsView settings={state.settings} onState={setState} />}
        <LoadMore
          kinds={(Object.keys(cursors) as Kind[]).filter((kind) => TAB_OF[kind] === tab)}
          label={(kind) => METHOD[kind]}
          more={more}
        />
        {tab === 'servers' && (
          <ServersView
            current={state.connected ? state.server : undefined}
            onOpen={(s) => (setState(s), setTab('tools'))}
          />
        )}
        {tab === 'check' && <CheckView connected={state.connected} />}
      </main>
      <aside>
        <NotificationsPane />
        <HistoryPane />
      </aside>
      <InputDialogs />
    </div>
  );
}
