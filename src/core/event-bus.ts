/**
 * The server's change notifications as events, so that every legacy session and (later)
 * every `subscriptions/listen` stream hears about them, in one process or, with another
 * implementation, across a fleet (DESIGN.md decision 7).
 * Source: 2026-07-28 basic/patterns/subscriptions; 2025-11-25 list_changed notifications.
 */
import { LIST_CHANGED } from './list-changed.js';

/** A change a server announces. */
export type ServerEvent =
  | { type: 'toolsListChanged' }
  | { type: 'promptsListChanged' }
  | { type: 'resourcesListChanged' }
  | { type: 'resourceUpdated'; uri: string };

/**
 * The notification method each event becomes, on a legacy session and on a listen stream
 * alike (2026-07-28 basic/patterns/subscriptions; 2025-11-25 server/tools, prompts, resources).
 */
export const EVENT_METHOD: Readonly<Record<ServerEvent['type'], string>> = {
  toolsListChanged: LIST_CHANGED.tools.method,
  promptsListChanged: LIST_CHANGED.prompts.method,
  resourcesListChanged: LIST_CHANGED.resources.method,
  resourceUpdated: 'notifications/resources/updated',
};

/** Publishes server events to every subscriber. */
export interface EventBus {
  publish(event: ServerEvent): void | Promise<void>;
  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: (event: ServerEvent) => void): () => void;
}

/** The in-memory bus: delivers synchronously to the listeners of this process. */
export function createMemoryEventBus(): EventBus {
  const listeners = new Set<(event: ServerEvent) => void>();
  return {
    publish(event) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
