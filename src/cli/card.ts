/**
 * `mcpkit card URL [--check]`: fetch a server's Server Card, validate it, and with
 * `--check` compare it with what the server actually serves, one line per drift.
 * Exit codes: 0 valid (and, with --check, no drift), 1 drift found, 2 usage, 3 the card
 * could not be fetched, 4 the card is not valid.
 */
import { discoverServerCard, fetchServerCard, type CardDrift } from '../client/index.js';
import { LocalError } from '../core/index.js';
import { SERVER_CARD_PATH, SERVER_CARD_WELL_KNOWN_PATH } from '../core/server-card.js';
import { checkCard, type RemoteReport } from './card-check.js';
import type { CardCommand } from './card-args.js';
import { CliError } from './errors.js';

/** What `card` prints, and its exit code. */
export interface CardOutcome {
  text: string;
  code: number;
}

/** Runs `mcpkit card`. */
export async function runCardCommand(command: CardCommand & { help?: false }): Promise<CardOutcome> {
  // A card URL is fetched as given; an endpoint URL is searched at both card locations.
  const path = new URL(command.url).pathname;
  const direct = path.endsWith(SERVER_CARD_PATH) || path === SERVER_CARD_WELL_KNOWN_PATH;
  const options = { timeoutMs: command.timeoutMs, headers: command.headers };
  let fetched;
  try {
    fetched = direct
      ? await fetchServerCard(command.url, options)
      : await discoverServerCard(command.url, options);
  } catch (error) {
    const invalid = error instanceof LocalError && error.code === 'INVALID_RESULT';
    throw new CliError(`${(error as Error).message}`, {
      kind: invalid ? 'protocol' : 'connection',
      cause: error,
    });
  }
  if (fetched.status !== 'ok')
    throw new CliError(`unexpected 304 from ${fetched.url}`, { kind: 'connection' });
  const card = fetched.card;
  if (!command.check) return { text: JSON.stringify(card, null, 2), code: 0 };
  const { cliVersion } = await import('./session.js');
  const { remotes, drift } = await checkCard(card, {
    headers: command.headers,
    values: command.values,
    timeoutMs: command.timeoutMs,
    version: cliVersion(),
  });
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
