/**
 * `mcpkit login URL` and `mcpkit logout URL` (kept apart from the shared parser):
 * login runs the browser flow now and keeps the tokens; logout forgets the tokens of
 * every resource that covers URL.
 */
import { parseArgs } from 'node:util';
import { fileStore, tokenFile } from './auth-store.js';
import { CliError } from './errors.js';

/** `mcpkit login` and `mcpkit logout`. */
export type AuthCommand =
  { name: 'login' | 'logout'; url: string } | { name: 'login' | 'logout'; help: true };

/** True for the commands this module parses. */
export function isAuthCommand(name: string): name is 'login' | 'logout' {
  return name === 'login' || name === 'logout';
}

/** Help for `login` and `logout`. */
const AUTH_USAGE = `Usage: mcpkit login URL
       mcpkit logout URL

login runs the OAuth flow for the protected server at URL now: a listener on
127.0.0.1 receives the browser's redirect; the authorization URL is printed (and opened
where possible). Tokens are kept per server in ${'$'}XDG_CONFIG_HOME/mcpkit/auth.json (mode
0600); later inspect/call/read/prompt use and refresh them. logout forgets them.
Other commands accept --token TOKEN to use a bearer token obtained elsewhere.`;

/** Parses the arguments after `login` or `logout`. @throws CliError for bad usage. */
export function parseAuthCommand(name: 'login' | 'logout', argv: readonly string[]): AuthCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new CliError(
      `${name}: ${error instanceof Error ? error.message.split(/\.\s/)[0] : 'bad arguments'}`,
    );
  }
  if (parsed.values.help) return { name, help: true };
  const [url, ...extra] = parsed.positionals;
  if (!url || extra.length > 0 || !/^https?:\/\//i.test(url))
    throw new CliError(`\`${name}\` takes one http(s) URL; run \`mcpkit ${name} --help\``);
  return { name, url };
}

/** Runs login or logout; resolves with the line to print. */
export async function runAuthCommand(command: AuthCommand): Promise<string> {
  if ('help' in command) return AUTH_USAGE;
  const url = new URL(command.url);
  if (command.name === 'logout') return logout(url);
  // The OAuth client loads only for login: the command-line parser imports this module.
  const { browserAuth } = await import('./auth-flow.js');
  const auth = await browserAuth();
  try {
    await auth.login(url);
    const status = await auth.status();
    return `logged in to ${url.href}${status?.scopes.length ? ` (scopes: ${status.scopes.join(' ')})` : ''}`;
  } catch (error) {
    throw new CliError(
      `login to ${url.href} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
        kind: 'connection',
      },
    );
  } finally {
    auth.close();
  }
}

async function logout(url: URL): Promise<string> {
  const store = fileStore();
  const covered = store.keys().filter((key) => {
    if (!key.startsWith('tokens ')) return false;
    const resource = key.slice('tokens '.length);
    return URL.canParse(resource) && url.href.startsWith(new URL(resource).href.replace(/\/$/, ''));
  });
  for (const key of covered) await store.delete(key);
  return covered.length > 0
    ? `logged out of ${url.href}`
    : `no tokens kept for ${url.href} (in ${tokenFile()})`;
}
