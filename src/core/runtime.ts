/**
 * The core's face for mcpkit's own layers (server, client, stdio, redis, auth), not exported
 * from the package: request correlation over a transport, timers for any duration, and the
 * loopback host list. Applications use `mcpkit` (core/index.ts) instead.
 */
export { Peer, type IncomingContext, type PeerHandlers, type PeerOptions } from './peer.js';
export { setTimer, timerDelay } from './timer.js';
export { LOOPBACK_HOSTS, isLoopbackHost } from './loopback.js';
