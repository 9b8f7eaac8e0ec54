/**
 * The server `mcpkit dev` serves, whose definition can be replaced while clients stay
 * connected. It is built from public composition only:
 *
 * - `server`, the one the transports serve (sessions, listen streams and the event bus live
 *   there and survive every reload), mounts a `slot` server under the prefix '' (names kept);
 * - the slot serves, through one transform, the catalogue of the current definition;
 * - each definition is mounted on a `frame` of its own, whose event bus is ours: the
 *   definition's own list changes and resource updates reach us through it, and the frame's
 *   transform captures the definition's catalogue whenever it changes;
 * - a replacement swaps the catalogue and bumps the slot (`transform()` with no transform:
 *   the catalogue is compiled again, nothing is announced, the slot's lists being fixed).
 *
 * The slot also serves one hidden entry in each list that is empty (see withPlaceholders).
 * Then each list (tools, prompts, resources with templates) whose wire definitions differ is
 * announced once: a client hears of a change, and only of one. A call already running holds
 * its entry from the old catalogue, so it finishes on the definition it started on.
 */
import type { ServerEvent } from '../../core/index.js';
import { createServer, type Catalogue, type McpServer, type ServerOptions } from '../../server/index.js';

const EMPTY: Catalogue = { tools: [], prompts: [], resources: [], templates: [] };

const hidden = () => false;
const PLACEHOLDER = 'mcpkit-dev-placeholder';

/**
 * `c`, with an entry no caller can see in each list it has none of. The served server
 * declares its capabilities from what it serves, and a legacy session hears only of lists
 * its server declared at `initialize`: with these, tools, prompts and resources are declared
 * from the start, so a list the file gains later is announced to sessions already open.
 */
function withPlaceholders(c: Catalogue): Catalogue {
  const refuse = () => Promise.reject(new Error('not served'));
  return {
    tools:
      c.tools.length > 0
        ? c.tools
        : [
            {
              tool: { name: PLACEHOLDER, inputSchema: { type: 'object' } },
              tags: [],
              visible: hidden,
              call: refuse,
            },
          ],
    prompts:
      c.prompts.length > 0
        ? c.prompts
        : [
            {
              prompt: { name: PLACEHOLDER },
              tags: [],
              visible: hidden,
              get: refuse,
              completer: () => undefined,
            },
          ],
    resources:
      c.resources.length + c.templates.length > 0
        ? c.resources
        : [
            {
              resource: { uri: `${PLACEHOLDER}:/`, name: PLACEHOLDER },
              tags: [],
              visible: hidden,
              read: refuse,
            },
          ],
    templates: c.templates,
  };
}

/** The wire form of each list, to tell whether it changed. */
interface Lists {
  tools: Map<string, string>;
  prompts: Map<string, string>;
  resources: Map<string, string>;
}

function listsOf(c: Catalogue): Lists {
  const by = <T>(items: readonly T[], key: (item: T) => string) =>
    new Map(items.map((item) => [key(item), JSON.stringify(item)]));
  return {
    tools: by(
      c.tools.map((e) => e.tool),
      (t) => t.name,
    ),
    prompts: by(
      c.prompts.map((e) => e.prompt),
      (p) => p.name,
    ),
    resources: by([...c.resources.map((e) => e.resource), ...c.templates.map((e) => e.template)], (r) =>
      'uri' in r ? r.uri : r.uriTemplate,
    ),
  };
}

/** What changed in one list: names added, changed and removed. */
export interface ListChange {
  added: string[];
  changed: string[];
  removed: string[];
}

/** What a replacement changed, per list (lists that did not change are absent). */
export type Changes = Partial<Record<keyof Lists, ListChange>>;

function diff(before: Map<string, string>, after: Map<string, string>): ListChange | undefined {
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  const order = (a: string[], b: string[]) => a.join('\n') !== b.join('\n');
  if (added.length + removed.length + changed.length === 0 && !order([...before.keys()], [...after.keys()]))
    return undefined;
  return { added, changed, removed };
}

/** The options of the served server: the first definition's identity and settings, its lists always announced. */
function servedOptions(first: McpServer): ServerOptions {
  const { extensions: _e, eventBus: _b, listChanged: _l, ...rest } = first.options;
  return { ...rest, name: first.info.name, version: first.info.version };
}

/** See the module comment. */
export class LiveServer {
  /** The served server: give it to a transport once. */
  readonly server: McpServer;
  readonly #slot: McpServer;
  #catalogue: Catalogue = EMPTY;
  #lists: Lists = listsOf(EMPTY);
  #frame: object | undefined;
  #onChange: (changes: Changes) => void = () => {};

  /** Serves `first`; `onChange` hears what each later change of the catalogue changed. */
  constructor(first: McpServer, onChange: (changes: Changes) => void = () => {}) {
    this.server = createServer(servedOptions(first));
    this.#slot = createServer({ name: 'mcpkit-dev-slot', version: '0', listChanged: false });
    this.#slot.transform(() => withPlaceholders(this.#catalogue));
    this.replace(first);
    this.server.mount('', this.#slot);
    this.#onChange = onChange;
  }

  /**
   * Serves `next` from now on and announces each list that changed.
   * @throws LocalError `INVALID_DEFINITION` when `next` cannot be composed (nothing changes then).
   */
  replace(next: McpServer): Changes {
    const frame = {};
    const bus = {
      publish: (event: ServerEvent) => this.#heard(frame, event),
      subscribe: () => () => {},
    };
    const host = createServer({ name: 'mcpkit-dev-frame', version: '0', eventBus: bus });
    host.mount('', next);
    let captured: Catalogue = EMPTY;
    host.transform((c) => (captured = c));
    this.#frame = frame;
    this.#recapture = () => {
      host.transform();
      return captured;
    };
    return this.#swap(captured);
  }

  /** Compiles the current definition's catalogue again (after it changed itself). */
  #recapture: () => Catalogue = () => EMPTY;

  #heard(frame: object, event: ServerEvent): void {
    if (frame !== this.#frame) return; // an older definition, no longer served
    if (event.type === 'resourceUpdated') this.server.notifyResourceUpdated(event.uri);
    else queueMicrotask(() => frame === this.#frame && this.#swap(this.#recapture()));
  }

  #swap(catalogue: Catalogue): Changes {
    const lists = listsOf(catalogue);
    const changes: Changes = {};
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      const change = diff(this.#lists[kind], lists[kind]);
      if (change) changes[kind] = change;
    }
    this.#catalogue = catalogue;
    this.#lists = lists;
    this.#slot.transform();
    if (changes.tools) this.server.notifyToolsChanged();
    if (changes.prompts) this.server.notifyPromptsChanged();
    if (changes.resources) this.server.notifyResourcesChanged();
    if (Object.keys(changes).length > 0) this.#onChange(changes);
    return changes;
  }
}
