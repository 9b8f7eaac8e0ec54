// Fans the CLI's events out to the components that care, through one event stream.
import { useEffect } from 'preact/hooks';
import { openEvents, type AppEvent } from './api.js';

const listeners = new Set<(event: AppEvent) => void>();

/** Opens the event stream once for the page. */
export function startEvents(): () => void {
  return openEvents((event) => {
    for (const listener of listeners) listener(event);
  });
}

/** Calls `onEvent` for each event while the component is mounted. */
export function useEvents(onEvent: (event: AppEvent) => void): void {
  useEffect(() => {
    listeners.add(onEvent);
    return () => void listeners.delete(onEvent);
  }, [onEvent]);
}
