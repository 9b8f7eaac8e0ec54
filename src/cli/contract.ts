/**
 * `mcpkit contract snapshot` (describe a server on each era it serves) and `mcpkit contract
 * diff` (classify the changes between two snapshots; exit 1 when one is at `--fail-on`).
 */
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
import { readJsonFile } from './json-file.js';

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
  const value = await readJsonFile(path, MAX_CONTRACT_BYTES);
  const problem = contractProblem(value);
  if (problem) throw new CliError(`${path} is not an mcpkit contract snapshot: ${problem}`);
  return value as Contract;
}

const SURFACE_MAPS = ['tools', 'resources', 'resourceTemplates', 'prompts'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What is wrong with `value` as a {@link Contract} (the first problem, with its JSON path), if anything. */
function contractProblem(value: unknown): string | undefined {
  if (!isRecord(value))
    return `it is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`;
  if (value.mcpkitContract !== 1) return '"mcpkitContract" is not 1';
  if (value.server === undefined) value.server = { name: '' };
  if (!isRecord(value.server) || typeof value.server.name !== 'string')
    return '"server" is not an object with a string "name"';
  if (!isRecord(value.eras)) return '"eras" is not an object';
  for (const [era, surface] of Object.entries(value.eras)) {
    if (era !== 'modern' && era !== 'legacy') return `"eras.${era}" is not an era (modern or legacy)`;
    const problem = surfaceProblem(surface);
    if (problem) return `"eras.${era}${problem}`;
  }
  return undefined;
}

function surfaceProblem(surface: unknown): string | undefined {
  if (!isRecord(surface)) return '" is not an object';
  if (typeof surface.protocolVersion !== 'string') return '.protocolVersion" is not a string';
  if (!isRecord(surface.capabilities)) return '.capabilities" is not an object';
  if (surface.instructions !== undefined && typeof surface.instructions !== 'string')
    return '.instructions" is not a string';
  for (const map of SURFACE_MAPS) {
    const entries = surface[map];
    if (!isRecord(entries)) return `.${map}" is not an object`;
    for (const [key, entry] of Object.entries(entries))
      if (!isRecord(entry)) return `.${map}[${JSON.stringify(key)}]" is not an object`;
  }
  for (const [name, tool] of Object.entries(surface.tools as Record<string, Record<string, unknown>>))
    if (!isRecord(tool.inputSchema)) return `.tools[${JSON.stringify(name)}].inputSchema" is not an object`;
  return undefined;
}

/** `--fail-on` values. */
export function failLevel(value: unknown): ChangeLevel {
  if (value === undefined) return 'breaking';
  if (value === 'breaking' || value === 'review' || value === 'info') return value;
  throw new CliError(`--fail-on must be breaking, review or info, not \`${String(value)}\``);
}
