/**
 * Tool arguments → one HTTP request for an operation: path parameters substituted (each
 * value percent-encoded, so it cannot leave its path segment), query, header and cookie
 * parameters serialised in their OpenAPI style, the body encoded in its media type, and the
 * configured headers and credentials added last.
 * Source: OpenAPI 3.1.0 §4.8.12.4 "Style Values" (simple, form, deepObject; explode).
 */
import { LocalError } from '../core/index.js';
import { isObject } from '../core/runtime.js';
import type { OperationSpec, OperationParameter } from './operations.js';

/** How the upstream authenticates callers; the values are secrets and never appear in results. */
export type OpenApiAuth =
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'apiKey'; in: 'header' | 'query'; name: string; value: string };

/** What every request of one API shares. */
export interface Upstream {
  /** The API's base URL; operation paths are appended to it. */
  baseUrl: URL;
  headers: Readonly<Record<string, string>>;
  auth?: OpenApiAuth;
}

/** A request ready for `fetch`. */
export interface PreparedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body?: string;
}

/**
 * Builds the request for `operation` from arguments its input schema has accepted.
 * @throws LocalError `INVALID_ARGUMENT` when a value cannot be serialised where it goes.
 */
export function prepareRequest(
  operation: OperationSpec,
  args: Record<string, unknown>,
  upstream: Upstream,
): PreparedRequest {
  let path = operation.path;
  const query = new URLSearchParams();
  const headers = new Headers();
  const cookies: string[] = [];
  for (const p of operation.parameters) {
    if (!Object.hasOwn(args, p.argument) || args[p.argument] === undefined) continue;
    const value = args[p.argument];
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(pathValue(p, value));
    else if (p.in === 'query') for (const [k, v] of queryPairs(p, value)) query.append(k, v);
    else if (p.in === 'header') headers.set(p.name, simple(p, value));
    else cookies.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(simple(p, value))}`);
  }
  if (cookies.length) headers.set('cookie', cookies.join('; '));
  const url = joinUrl(upstream.baseUrl, path);
  url.search = query.toString();
  for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value);
  applyAuth(upstream.auth, url, headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json, */*;q=0.5');
  const prepared: PreparedRequest = { url, method: operation.method, headers };
  if (operation.body && Object.hasOwn(args, 'body') && args.body !== undefined) {
    headers.set('content-type', operation.body.mediaType);
    prepared.body = encodeBody(operation.body.mediaType, args.body);
  }
  return prepared;
}

/** `base` + `path`, refusing any result outside `base` (a path value cannot climb out). */
function joinUrl(base: URL, path: string): URL {
  const prefix = base.href.replace(/\/+$/, '');
  const url = new URL(prefix + (path.startsWith('/') ? path : `/${path}`));
  if (url.origin !== base.origin || !url.href.startsWith(prefix))
    throw new LocalError('INVALID_ARGUMENT', 'the request URL would leave the configured base URL');
  return url;
}

function applyAuth(auth: OpenApiAuth | undefined, url: URL, headers: Headers): void {
  if (!auth) return;
  if (auth.type === 'bearer') headers.set('authorization', `Bearer ${auth.token}`);
  else if (auth.type === 'basic')
    headers.set('authorization', `Basic ${btoa(`${auth.username}:${auth.password}`)}`);
  else if (auth.in === 'header') headers.set(auth.name, auth.value);
  else url.searchParams.set(auth.name, auth.value);
}

/**
 * A path segment: `simple` style, percent-encoded. `.` and `..` are refused: URL parsing
 * treats them (even percent-encoded) as dot segments that climb the path.
 */
function pathValue(p: OperationParameter, value: unknown): string {
  const text = simple(p, value);
  if (text === '.' || text === '..')
    throw new LocalError('INVALID_ARGUMENT', `path parameter '${p.name}' cannot be ${JSON.stringify(text)}`);
  return encodeURIComponent(text);
}

/** `simple` style: arrays comma-joined; objects `k,v,k,v` (explode: `k=v,k=v`). */
function simple(p: OperationParameter, value: unknown): string {
  if (Array.isArray(value)) return value.map(scalar(p)).join(',');
  if (isObject(value)) {
    const pairs = Object.entries(value).map(([k, v]) =>
      p.explode ? `${k}=${scalar(p)(v)}` : `${k},${scalar(p)(v)}`,
    );
    return pairs.join(',');
  }
  return scalar(p)(value);
}

/** `form` style (explode: one pair per item), `spaceDelimited`, `pipeDelimited` and `deepObject`. */
function queryPairs(p: OperationParameter, value: unknown): Array<[string, string]> {
  const toText = scalar(p);
  if (Array.isArray(value)) {
    if (p.explode && p.style === 'form') return value.map((v) => [p.name, toText(v)]);
    const separator = p.style === 'spaceDelimited' ? ' ' : p.style === 'pipeDelimited' ? '|' : ',';
    return [[p.name, value.map(toText).join(separator)]];
  }
  if (isObject(value)) {
    if (p.style === 'deepObject')
      return Object.entries(value).map(([k, v]) => [`${p.name}[${k}]`, toText(v)]);
    if (p.explode) return Object.entries(value).map(([k, v]) => [k, toText(v)]);
    return [
      [
        p.name,
        Object.entries(value)
          .flatMap(([k, v]) => [k, toText(v)])
          .join(','),
      ],
    ];
  }
  return [[p.name, toText(value)]];
}

function scalar(p: OperationParameter): (value: unknown) => string {
  return (value) => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (value === null) return '';
    throw new LocalError('INVALID_ARGUMENT', `parameter '${p.name}' cannot carry a nested value in ${p.in}`);
  };
}

function encodeBody(mediaType: string, body: unknown): string {
  if (mediaType === 'application/x-www-form-urlencoded') {
    if (!isObject(body)) throw new LocalError('INVALID_ARGUMENT', 'a form body must be an object');
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      form.append(k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
    }
    return form.toString();
  }
  if (mediaType.startsWith('text/')) return typeof body === 'string' ? body : JSON.stringify(body);
  return JSON.stringify(body);
}
