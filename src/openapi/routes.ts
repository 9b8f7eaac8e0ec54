/**
 * Route maps: which operations become tools, which become resources (GET only) and which are
 * left out. The first map that matches an operation decides; an operation no map matches
 * becomes a tool.
 */
import type { OperationSpec } from './operations.js';

/** What an operation becomes. */
export type RouteTarget = 'tool' | 'resource' | 'exclude';

/**
 * One rule of a route map. Every condition given must hold; a map with none matches every
 * operation.
 */
export interface RouteMap {
  /** HTTP methods, upper case (`GET`, `POST`…). */
  methods?: readonly string[];
  /** Tested against the path template, e.g. `/^\/admin\//` matches `/admin/{id}`. */
  pattern?: RegExp;
  /** The operation has at least one of these tags. */
  tags?: readonly string[];
  /** The operation's `operationId` is one of these. */
  operationIds?: readonly string[];
  to: RouteTarget;
}

/** Where `operation` goes under `routes` (default: a tool). */
export function routeOf(operation: OperationSpec, routes: readonly RouteMap[]): RouteTarget {
  for (const route of routes) if (matches(route, operation)) return route.to;
  return 'tool';
}

function matches(route: RouteMap, operation: OperationSpec): boolean {
  if (route.methods && !route.methods.some((m) => m.toUpperCase() === operation.method)) return false;
  if (route.pattern) {
    route.pattern.lastIndex = 0; // a /g or /y pattern keeps state between tests
    if (!route.pattern.test(operation.path)) return false;
  }
  if (route.tags && !route.tags.some((t) => operation.tags.includes(t))) return false;
  if (route.operationIds && !(operation.operationId && route.operationIds.includes(operation.operationId)))
    return false;
  return true;
}
