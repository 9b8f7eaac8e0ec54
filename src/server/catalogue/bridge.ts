/**
 * What a mounted server announces, heard by the server it is mounted on: its list changes
 * become the parent's (where the parent's lists may change), its resource updates the
 * parent's under the mount's URI. Mounts last as long as the servers: nothing unsubscribes.
 * Source: 2026-07-28 basic/patterns/subscriptions; 2025-11-25 server/resources "Subscriptions".
 */
import type { EventBus, ServerCapabilities, ServerEvent } from '../../core/index.js';
import type { MountNames } from './mount.js';

/** Passes events of `from` (the mounted server's bus) on to `to` (the parent's). */
export function bridgeEvents(from: EventBus, to: EventBus, init: { names: MountNames; lists: boolean }): void {
  from.subscribe((event: ServerEvent) => {
    if (event.type === 'resourceUpdated')
      void to.publish({ type: 'resourceUpdated', uri: init.names.parentUri(event.uri) });
    else if (init.lists) void to.publish({ type: event.type });
  });
}

/**
 * `caps` with what mounted servers declare beyond their lists (`experimental`,
 * `extensions`, such as the Tasks extension); the parent's own declarations win.
 */
export function withMounted(caps: ServerCapabilities, mounted: readonly ServerCapabilities[]): ServerCapabilities {
  for (const child of mounted) {
    if (child.extensions) caps.extensions = { ...child.extensions, ...caps.extensions };
    if (child.experimental) caps.experimental = { ...child.experimental, ...caps.experimental };
  }
  return caps;
}
