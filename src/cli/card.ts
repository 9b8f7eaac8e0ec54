/**
 * `mcpkit card URL [--check]`: fetch a server's Server Card, validate it, and with
 * `--check` compare it with what the server actually serves, one line per drift.
 * Exit codes: 0 valid (and, with --check, no drift), 1 drift found, 2 usage, 3 the card
 * could not be fetched, 4 the card is not valid.
 */
import { parseArgs } from 'node:util';
import { fetchServerCard, serverCardUrl, type CardDrift } from '../client/index.js';
import { LocalError, SERVER_CARD_PATH } from '../core/index.js';
import { checkCard, type RemoteReport } from './card-check.js';
import { CliError } from './errors.js';
import { refuseCredentials } from './host-args.js';

/** `mcpkit card`. */
export type CardCommand =
  | {
      name: 'card';
      help?: false;
      url: string;
      check: boolean;
      json: boolean;
      timeoutMs: number;
      headers: Record<string, string>;
      values: Record<string, string>;
    }
  | { name: 'card'; help: true };

/** `--help` of `mcpkit card`. */
export const CARD_USAGE = `Usage: mcpkit card URL [--check] [flags]

Fetches the Server Card (SEP-2127 draft) of a Streamable HTTP endpoint and validates it.
URL is the endpoint (the card is read from URL/server-card) or the card's own URL.
Without --check the card is printed.

  --check                   connect to each remote the card names and compare the card
                            with what is served there: name, version, title, description,
                            icons, supported protocol versions, transport, whether the
                            Authorization header it declares is needed; also the
                            capabilities against the lists served, and across remotes
  --var NAME=VALUE          a value for a {NAME} variable in a remote URL (repeatable)
  --header 'NAME: VALUE'    extra HTTP header on every request (repeatable)
  --token TOKEN             a bearer token for protected remotes
  --timeout MS              per-request timeout in milliseconds (default 10000)
  --json                    print the card, or the check's report, as JSON
  -h, --help                show this help

Exit codes: 0 the card is valid (with --check: and agrees with the server), 1 drift
found, 2 usage, 3 the card could not be fetched, 4 the card is not valid.`;

/** Parses the arguments after `card`. @throws CliError for bad usage. */
export function parseCardCommand(argv: readonly string[]): CardCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        check: { type: 'boolean' },
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        header: { type: 'string', multiple: true },
        token: { type: 'string' },
        var: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new CliError(`card: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit card --help\``);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { name: 'card', help: true };
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0)
    throw new CliError('`card` takes one URL; run `mcpkit card --help`');
  if (!/^https?:\/\//i.test(url)) throw new CliError(`\`${url}\` is not an http(s) URL`);
  refuseCredentials(url);
  const timeoutMs = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new CliError(`--timeout must be a positive integer, not \`${values.timeout}\``);
  const headers = pairs(values.header ?? [], /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/, '--header');
  if (values.token !== undefined) headers.authorization = `Bearer ${values.token}`;
  const vars = pairs(values.var ?? [], /^([a-zA-Z_][a-zA-Z0-9_]*)=(.*)$/, '--var');
  return {
    name: 'card',
    url,
    check: values.check === true,
    json: values.json === true,
    timeoutMs,
    headers,
    values: vars,
  };
}

function pairs(lines: readonly string[], shape: RegExp, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const match = shape.exec(line);
    if (!match?.[1] || /[\r\n\0]/.test(match[2] ?? ''))
      throw new CliError(`${flag}: cannot read \`${line}\``);
    Object.defineProperty(out, match[1], {
      value: (match[2] ?? '').trim(),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

/** What `card` prints, and its exit code. */
export interface CardOutcome {
  text: string;
  code: number;
}

/** Runs `mcpkit card`. */
export async function runCardCommand(command: CardCommand & { help?: false }): Promise<CardOutcome> {
  const cardUrl = new URL(command.url).pathname.endsWith(SERVER_CARD_PATH)
    ? command.url
    : serverCardUrl(command.url);
  let fetched;
  try {
    fetched = await fetchServerCard(cardUrl, { timeoutMs: command.timeoutMs, headers: command.headers });
  } catch (error) {
    const invalid = error instanceof LocalError && error.code === 'INVALID_RESULT';
    throw new CliError(`${(error as Error).message}`, {
      kind: invalid ? 'protocol' : 'connection',
      cause: error,
    });
  }
  if (fetched.status !== 'ok') throw new CliError(`unexpected 304 from ${cardUrl}`, { kind: 'connection' });
  const card = fetched.card;
  if (!command.check) return { text: JSON.stringify(card, null, 2), code: 0 };
  const { cliVersion } = await import('./session.js');
  const options = {
    headers: command.headers,
    values: command.values,
    timeoutMs: command.timeoutMs,
    version: cliVersion(),
  };
  const { remotes, drift } = await checkCard(card, options);
  const code = drift.length > 0 ? 1 : 0;
  if (command.json) return { text: JSON.stringify({ card: fetched.url, remotes, drift }, null, 2), code };
  return { text: report(`card ${fetched.url}: valid (${card.name} ${card.version})`, remotes, drift), code };
}

function report(heading: string, remotes: RemoteReport[], drift: CardDrift[]): string {
  const lines = [heading];
  for (const remote of remotes) {
    if (remote.skipped) lines.push(`remote ${remote.type} ${remote.url}: not checked (${remote.skipped})`);
    else if (remote.era === undefined) lines.push(`remote ${remote.type} ${remote.url}: unreachable`);
    else {
      const counts = Object.entries(remote.lists ?? {}).map(([name, items]) => `${items.length} ${name}`);
      lines.push(
        `remote ${remote.type} ${remote.url}: ${remote.era}, serves ${(remote.supportedVersions ?? []).join(' ')}; ${counts.join(', ') || 'no lists'}`,
      );
    }
  }
  for (const item of drift) lines.push(`drift ${item.field}: ${item.message}`);
  lines.push(drift.length === 0 ? 'no drift' : `${drift.length} drift${drift.length === 1 ? '' : 's'}`);
  return lines.join('\n');
}
