// The app's only way out: the inspector's local JSON API and event stream, both carrying the
// session token from the page URL. All MCP work happens in the CLI process.

const query = new URLSearchParams(location.search);
const token = query.get('token') ?? '';

/**
 * A deep link's part in the hash (`#tool=echo&args={"text":"hi"}&era=legacy`), read first
 * from the hash and then from the query: the tool to open, the arguments to put in its form,
 * and the era to connect with.
 */
const link = new URLSearchParams(location.hash.slice(1));
const linked = (name: string) => link.get(name) ?? query.get(name);

/** What the CLI was started with (target and era), for the connection panel; and the deep link. */
export const startup = {
  target: parseJson(query.get('target')) ?? { kind: 'builtin' },
  era: linked('era') ?? 'auto',
  /** The era the deep link asks for: the app reconnects with it when the CLI used another. */
  linkedEra: link.get('era') ?? undefined,
  tool: linked('tool') ?? undefined,
  args: parseJson(linked('args')),
};

/** Puts the open tool (and the linked era) in the page's hash, so the address is a deep link to it. */
export function linkTo(tool: string | undefined): void {
  const era = new URLSearchParams(location.hash.slice(1)).get('era');
  const parts = new URLSearchParams({ ...(tool ? { tool } : {}), ...(era ? { era } : {}) }).toString();
  const hash = parts ? `#${parts}` : '';
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

function parseJson(text: string | null): Record<string, unknown> | undefined {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A failure reported by the API: an MCP error (with its code) or a local one. */
export class ApiError extends Error {
  readonly code: unknown;
  readonly data: unknown;
  constructor(error: { message: string; code?: unknown; data?: unknown }) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

/** Calls one API route; resolves with its result. @throws ApiError */
export async function api<T = unknown>(route: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcpkit-token': token },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new ApiError(answer.error);
  return answer.result as T;
}

/** An event from the CLI process. */
export type AppEvent = { type: string; [key: string]: unknown };

/** Opens the event stream; returns the function that closes it. */
export function openEvents(onEvent: (event: AppEvent) => void): () => void {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.onmessage = (message: MessageEvent<string>) => onEvent(JSON.parse(message.data) as AppEvent);
  return () => source.close();
}
