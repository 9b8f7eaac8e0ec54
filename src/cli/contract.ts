/**
 * `mcpkit contract snapshot` (describe a server on each era it serves) and `mcpkit contract
 * diff` (classify the changes between two snapshots; exit 1 when one is at `--fail-on`).
 */
import { readFile } from 'node:fs/promises';
import type { Era } from '../core/index.js';
import {
  atLeast,
  contractOf,
  diffContracts,
  formatContractChanges,
  surfaceOf,
  type ChangeLevel,
  type Contract,
  type ContractSurface,
} from '../testing/index.js';
import type { ClientFlags } from './args.js';
import { CliError, describeError } from './errors.js';

/** Largest snapshot file `contract diff` reads, in bytes. */
const MAX_CONTRACT_BYTES = 32 * 1024 * 1024;

/**
 * Connects once per era (both unless `--era` pins one) and returns the contract as sorted,
 * indented JSON. An era the server does not serve is left out, with a note on stderr.
 * @throws CliError when no era could be described.
 */
export async function snapshotCommand(flags: ClientFlags): Promise<string> {
  const { withSession } = await import('./session.js');
  const eras: Era[] = flags.era === 'auto' ? ['modern', 'legacy'] : [flags.era];
  const surfaces: Partial<Record<Era, ContractSurface>> = {};
  let identity: { name: string; version?: string } | undefined;
  let firstError: unknown;
  for (const era of eras) {
    try {
      surfaces[era] = await withSession({ ...flags, era }, async ({ client, signal }) => {
        const surface = await surfaceOf(client, { signal });
        const info = client.serverInfo;
        if (info && identity === undefined) identity = { name: info.name, version: info.version };
        return surface;
      });
    } catch (error) {
      if (flags.era !== 'auto') throw error;
      firstError ??= error;
      process.stderr.write(`mcpkit: contract: the ${era} era left out: ${describeError(error)}\n`);
    }
  }
  if (Object.keys(surfaces).length === 0) throw firstError;
  return JSON.stringify(contractOf(identity ?? { name: '' }, surfaces), null, 2);
}

/** What `contract diff` printed and whether a change at `--fail-on` was found. */
export interface DiffOutcome {
  text: string;
  failed: boolean;
}

/** Reads two snapshot files and reports their changes (text, or JSON with `json`). */
export async function diffCommand(
  paths: [before: string, after: string],
  options: { failOn: ChangeLevel; json: boolean },
): Promise<DiffOutcome> {
  const [before, after] = await Promise.all(paths.map(readContract));
  const changes = diffContracts(before as Contract, after as Contract);
  const failed = changes.some((c) => atLeast(c, options.failOn));
  const text = options.json
    ? JSON.stringify({ failOn: options.failOn, failed, changes }, null, 2)
    : formatContractChanges(changes);
  return { text, failed };
}

async function readContract(path: string): Promise<Contract> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}`,
    );
  }
  if (text.length > MAX_CONTRACT_BYTES) throw new CliError(`${path} is over ${MAX_CONTRACT_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${describeError(error)}`);
  }
  const value = parsed as Partial<Contract> | null;
  if (value?.mcpkitContract !== 1 || typeof value.eras !== 'object' || value.eras === null)
    throw new CliError(`${path} is not an mcpkit contract snapshot (no "mcpkitContract": 1)`);
  if (typeof value.server !== 'object' || value.server === null) value.server = { name: '' };
  return value as Contract;
}

/** `--fail-on` values. */
export function failLevel(value: unknown): ChangeLevel {
  if (value === undefined) return 'breaking';
  if (value === 'breaking' || value === 'review' || value === 'info') return value;
  throw new CliError(`--fail-on must be breaking, review or info, not \`${String(value)}\``);
}
