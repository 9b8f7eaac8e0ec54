/**
 * The `mcpServers` configuration that Claude Desktop, Cursor and VS Code write, checked
 * with zod: stdio servers (`command`/`args`/`env`/`cwd`) and Streamable HTTP servers
 * (`url`/`headers`, optional `type`), `${VAR}` interpolation, and mcpkit's own per-server
 * keys (filters, timeout, input policy, roots). Unknown shapes are rejected with an error
 * naming the server and the key.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LocalError } from '../core/index.js';
import { DEFAULT_MAX_JSON_DEPTH, isHeaderToken, nestedDeeperThan, uriPrefix } from '../core/runtime.js';

const stringMap = z.record(z.string(), z.string());
const decision = z.enum(['allow', 'deny']);
/**
 * HTTP headers of a Streamable HTTP server: names are RFC 9110 tokens (§5.1) and values hold
 * no CR, LF or NUL (§5.5), refused here rather than by `fetch` at the first connection.
 */
const headerMap = z.record(
  z.string().refine(isHeaderToken, 'a header name must be an HTTP token (RFC 9110 §5.1)'),
  z.string().refine((v) => !/[\r\n\0]/.test(v), 'a header value must not hold CR, LF or NUL'),
);

/** Per-server allow/deny for each kind of user-facing input a server may ask for. */
const policySchema = z.strictObject({
  elicitation: decision.optional(),
  sampling: decision.optional(),
  roots: decision.optional(),
});

const rootSchema = z
  .strictObject({ uri: z.string().startsWith('file://'), name: z.string() })
  .partial({ name: true });

const serverSchema = z
  .strictObject({
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp']).optional(),
    command: z.string().min(1, 'command must not be empty').optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: headerMap.optional(),
    disabled: z.boolean().optional(),
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
    era: z.enum(['auto', 'modern', 'legacy']).optional(),
    policy: policySchema.optional(),
    roots: z.array(rootSchema).optional(),
    // Keys other apps write that mean nothing to mcpkit.
    autoApprove: z.array(z.string()).optional(),
    alwaysAllow: z.array(z.string()).optional(),
    description: z.string().optional(),
  })
  .superRefine((server, ctx) => {
    const stdio = server.command !== undefined;
    const http = server.url !== undefined;
    if (stdio === http)
      ctx.addIssue({
        code: 'custom',
        message: stdio
          ? 'give either "command" (stdio) or "url" (Streamable HTTP), not both'
          : 'needs "command" (a stdio server) or "url" (a Streamable HTTP server)',
      });
    if (server.type === 'stdio' && http)
      ctx.addIssue({ code: 'custom', message: 'type "stdio" needs "command", not "url"' });
    if (server.type !== undefined && server.type !== 'stdio' && stdio)
      ctx.addIssue({ code: 'custom', message: `type "${server.type}" needs "url", not "command"` });
    if (http && !URL.canParse(server.url ?? ''))
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'not a URL' });
  });

/** A server's name (its key); qualified names replace characters tool names cannot hold. */
const serverName = z.string().min(1).max(64);

const serversSchema = z.record(serverName, serverSchema);
const fileSchema = z.union([
  z.looseObject({ mcpServers: serversSchema }),
  z.looseObject({ servers: serversSchema }),
]);

/** One entry of `mcpServers`, as written (before interpolation). See docs/guide/host-gateway.md for every key. */
export type ServerConfig = z.input<typeof serverSchema>;
/** Allow or deny per input kind (default: allow when the host has a handler for it). */
export type InputPolicy = z.infer<typeof policySchema>;
/** The `mcpServers` map: server name → entry. */
export type ServersConfig = Record<string, ServerConfig>;

/** A checked server entry with `${VAR}` references replaced. */
export type ResolvedServer = z.output<typeof serverSchema> & { name: string };

/**
 * Checks an `mcpServers` map and interpolates `${VAR}`, `${env:VAR}` and `${VAR:-default}`
 * in `command`, `args`, `env`, `cwd`, `url` and `headers` from `env` (default
 * `process.env`). Disabled servers are dropped.
 * @throws LocalError `INVALID_ARGUMENT` naming the server and key of every problem.
 */
export function resolveServers(
  servers: unknown,
  env: Record<string, string | undefined> = process.env,
): ResolvedServer[] {
  const out: ResolvedServer[] = [];
  for (const [name, server] of Object.entries(checkServers(servers, 'mcpServers'))) {
    if (server.disabled === true) continue;
    out.push({
      ...interpolateServer(server, (text, key) => interpolate(text, env, `mcpServers.${name}.${key}`)),
      name,
    });
  }
  checkPrefixes(out.map((s) => s.name));
  return out;
}

/**
 * Two server names that become the same URI prefix (`fs_a` and `fs-a` both give
 * `fs-a+file:///…`, core/namespace.ts `uriPrefix`) would make one server's resources
 * unreachable: refused now, naming both.
 * @throws LocalError `INVALID_ARGUMENT`.
 */
function checkPrefixes(names: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const prefix = uriPrefix(name);
    const other = seen.get(prefix);
    if (other !== undefined) {
      const message = `mcpServers: servers '${other}' and '${name}' both give the URI prefix '${prefix}+'; rename one`;
      throw new LocalError('INVALID_ARGUMENT', message);
    }
    seen.set(prefix, name);
  }
}

/**
 * Reads a JSON configuration file as these apps write it: `{ "mcpServers": { … } }`
 * (Claude Desktop, Cursor) or `{ "servers": { … } }` (VS Code). Other top-level keys are
 * ignored. Returns the unresolved map, for {@link resolveServers} or `createHost`.
 * @throws LocalError `INVALID_ARGUMENT` for unreadable files, bad JSON or unknown shapes.
 */
export async function loadHostConfig(path: string): Promise<ServersConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${path} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (nestedDeeperThan(text, DEFAULT_MAX_JSON_DEPTH))
    throw new LocalError(
      'INVALID_ARGUMENT',
      `${path} is nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
    );
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const top = typeof json === 'object' && json !== null && ('mcpServers' in json || 'servers' in json);
    if (!top)
      throw new LocalError(
        'INVALID_ARGUMENT',
        `${path}: expected an object with "mcpServers" (or "servers")`,
      );
    const key = 'mcpServers' in (json as object) ? 'mcpServers' : 'servers';
    throw configError(
      serversSchema.safeParse((json as Record<string, unknown>)[key]).error,
      `${path}: ${key}`,
    );
  }
  const key = 'mcpServers' in parsed.data ? 'mcpServers' : 'servers';
  const servers = (json as Record<string, unknown>)[key];
  checkServers(servers, `${path}: ${key}`);
  return servers as ServersConfig; // as written: zod's copy would have left out a `__proto__` name
}

type CheckedServer = z.output<typeof serverSchema>;

/**
 * The checked servers by name, every own key kept: zod's records leave out a `__proto__`
 * key, so that entry (and such a key of `env` or `headers`) is checked alone and put back.
 * @throws LocalError `INVALID_ARGUMENT` as {@link resolveServers}.
 */
function checkServers(servers: unknown, where: string): Record<string, CheckedServer> {
  const parsed = serversSchema.safeParse(servers);
  if (!parsed.success) throw configError(parsed.error, where);
  const raw = servers as Record<string, Record<string, unknown>>;
  const all = withOwnProto({ input: raw, parsed: parsed.data, where }, serverSchema);
  for (const [name, server] of Object.entries(all)) {
    const input = raw[name] ?? {};
    const at = `${where}.${name}`;
    if (server.env) server.env = withOwnProto({ input: input.env, parsed: server.env, where: `${at}.env` });
    if (server.headers)
      server.headers = withOwnProto({ input: input.headers, parsed: server.headers, where: `${at}.headers` });
  }
  return all;
}

/** `parsed` (zod's copy of the record `input`) with `input`'s own `__proto__` entry, checked by `value`, back in place. */
function withOwnProto<T>(
  record: { input: unknown; parsed: Record<string, T>; where: string },
  value: z.ZodType<T> = z.string() as unknown as z.ZodType<T>,
): Record<string, T> {
  const { input, parsed, where } = record;
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, '__proto__')) return parsed;
  const entry = value.safeParse((input as Record<string, unknown>)['__proto__']);
  if (!entry.success) throw configError(entry.error, `${where}.__proto__`);
  const keys = Object.keys(input);
  return Object.fromEntries(keys.map((k) => [k, k === '__proto__' ? entry.data : (parsed[k] as T)]));
}

function interpolateServer<T extends z.output<typeof serverSchema>>(
  server: T,
  sub: (text: string, key: string) => string,
): T {
  const map = (m: Record<string, string> | undefined, key: string) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, sub(v, `${key}.${k}`)]));
  const out: T = { ...server };
  if (server.command !== undefined) out.command = sub(server.command, 'command');
  if (server.args) out.args = server.args.map((a, i) => sub(a, `args[${i}]`));
  if (server.cwd !== undefined) out.cwd = sub(server.cwd, 'cwd');
  if (server.url !== undefined) out.url = sub(server.url, 'url');
  if (server.env) out.env = map(server.env, 'env');
  if (server.headers) out.headers = map(server.headers, 'headers');
  return out;
}

const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces `${VAR}`, `${env:VAR}`, `${VAR:-default}`. @throws LocalError for an unset variable without default. */
function interpolate(text: string, env: Record<string, string | undefined>, where: string): string {
  return text.replace(REFERENCE, (_all, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new LocalError('INVALID_ARGUMENT', `${where}: environment variable ${name} is not set`);
  });
}

function configError(error: z.ZodError | undefined, where: string): LocalError {
  const issues = (error?.issues ?? []).map((issue) => {
    const path = issue.path.map(String).join('.');
    const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
    const message = inner === undefined ? issue.message : `server name: ${inner}`;
    return `${where}${path ? `.${path}` : ''}: ${message}`;
  });
  return new LocalError('INVALID_ARGUMENT', `invalid host configuration: ${issues.join('; ')}`, {
    cause: error,
  });
}
