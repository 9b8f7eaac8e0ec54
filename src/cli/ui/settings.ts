/**
 * The inspector's client settings (the official Inspector's "client settings"): which
 * extensions the client advertises, which capabilities it declares, and whether lists come
 * a page at a time. The era is chosen beside the target (connect). Changing a setting
 * reconnects, since a legacy server learns them only in `initialize`.
 * Sources: 2026-07-28 basic/index "Per-request protocol fields" (client capabilities in
 * every modern request), 2025-11-25 basic/lifecycle "Capability Negotiation", SEP-2133
 * (extensions), client/elicitation (form and URL modes), server/utilities/pagination.
 */
import {
  createClient,
  tasksExtension,
  type Client,
  type ClientHandlers,
  type ClientOptions,
  type EraPreference,
} from '../../client/index.js';
import type { JsonRpcNotification } from '../../core/index.js';
import { UI_EXTENSION, uiClientExtension } from '../../core/apps.js';

/** The extensions the inspector's client knows, by id. */
const KNOWN_EXTENSIONS = [UI_EXTENSION, tasksExtension.id] as const;

/** What the inspector's client declares and how it lists. */
export interface ClientSettings {
  /**
   * The extension ids to advertise, among {@link KNOWN_EXTENSIONS}: MCP Apps in every
   * request; Tasks on the calls that allow a task (without it no call allows one).
   */
  extensions: string[];
  /** Capabilities to declare; each one off also removes its handler. */
  capabilities: {
    sampling: boolean;
    elicitationForm: boolean;
    elicitationUrl: boolean;
    roots: boolean;
  };
  /** `true`: lists load one page (the server's page size) at a time, with "load more". */
  pagedLists: boolean;
}

/** Everything on, lists fetched whole. */
export const DEFAULT_SETTINGS: ClientSettings = {
  extensions: [...KNOWN_EXTENSIONS],
  capabilities: { sampling: true, elicitationForm: true, elicitationUrl: true, roots: true },
  pagedLists: false,
};

const flag = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);

/** Settings from the app's request body: unknown fields dropped, missing ones the defaults. */
export function parseSettings(value: unknown): ClientSettings {
  const body = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const caps = (body.capabilities ?? {}) as Record<string, unknown>;
  const d = DEFAULT_SETTINGS.capabilities;
  const extensions = Array.isArray(body.extensions)
    ? KNOWN_EXTENSIONS.filter((id) => (body.extensions as unknown[]).includes(id))
    : [...KNOWN_EXTENSIONS];
  return {
    extensions,
    capabilities: {
      sampling: flag(caps.sampling, d.sampling),
      elicitationForm: flag(caps.elicitationForm, d.elicitationForm),
      elicitationUrl: flag(caps.elicitationUrl, d.elicitationUrl),
      roots: flag(caps.roots, d.roots),
    },
    pagedLists: flag(body.pagedLists, DEFAULT_SETTINGS.pagedLists),
  };
}

/** The client options the settings decide, given every handler the inspector has. */
function clientOptionsOf(
  settings: ClientSettings,
  handlers: Required<Pick<ClientHandlers, 'sampling' | 'elicitation' | 'roots'>>,
): Pick<ClientOptions, 'extensions' | 'elicitationModes' | 'handlers'> {
  const { sampling, elicitationForm, elicitationUrl, roots } = settings.capabilities;
  const modes = [...(elicitationForm ? ['form' as const] : []), ...(elicitationUrl ? ['url' as const] : [])];
  return {
    extensions: settings.extensions.includes(UI_EXTENSION) ? [uiClientExtension()] : [],
    elicitationModes: modes,
    handlers: {
      ...(sampling ? { sampling: handlers.sampling } : {}),
      ...(modes.length > 0 ? { elicitation: handlers.elicitation } : {}),
      ...(roots ? { roots: handlers.roots } : {}),
    },
  };
}

/** What the inspector's client asks of the inspector. */
export interface InspectorHooks {
  /** Asks the person at the browser (elicitation, sampling). */
  ask(kind: 'elicitation' | 'sampling', params: unknown, signal: AbortSignal): Promise<unknown>;
  /** The roots the person configured. */
  roots(): { uri: string; name?: string }[];
  /** Every notification from the server. */
  notify(notification: JsonRpcNotification): void;
}

/** The inspector's client for one connection, as `settings` say, speaking `era`. */
export function inspectorClient(era: EraPreference, settings: ClientSettings, hooks: InspectorHooks): Client {
  return createClient({
    name: 'mcpkit-inspector',
    version: '0.1.0',
    era,
    logLevel: 'debug',
    ...clientOptionsOf(settings, {
      elicitation: (params, { signal }) => hooks.ask('elicitation', params, signal) as never,
      sampling: (params, { signal }) => hooks.ask('sampling', params, signal) as never,
      roots: async () => ({ roots: hooks.roots() }),
    }),
    onNotification: (notification) => hooks.notify(notification),
  });
}
