/**
 * Where the CLI keeps OAuth client registrations and tokens: one JSON file in the user's
 * config directory (`$XDG_CONFIG_HOME/mcpkit`, `~/.config/mcpkit`, or `%APPDATA%\mcpkit`),
 * created with mode 0600 in a 0700 directory, written whole through a temporary file.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStore } from '../auth/index.js';

/** The CLI's config directory (`MCPKIT_CONFIG_DIR` overrides it). */
function configDir(): string {
  if (process.env.MCPKIT_CONFIG_DIR) return process.env.MCPKIT_CONFIG_DIR;
  if (process.platform === 'win32' && process.env.APPDATA) return join(process.env.APPDATA, 'mcpkit');
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'mcpkit');
}

/** The token file of the CLI. */
export function tokenFile(): string {
  return join(configDir(), 'auth.json');
}

function readAll(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function writeAll(path: string, data: Record<string, unknown>): void {
  const dir = join(path, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(data, null, 2), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** An {@link AuthStore} kept in `path` (default: {@link tokenFile}), mode 0600. */
export function fileStore(path: string = tokenFile()): AuthStore & { keys(): string[] } {
  return {
    get: async (key) => {
      const all = readAll(path);
      return Object.hasOwn(all, key) ? all[key] : undefined;
    },
    set: async (key, value) => writeAll(path, { ...readAll(path), [key]: value }),
    delete: async (key) => {
      const all = readAll(path);
      if (!Object.hasOwn(all, key)) return;
      delete all[key];
      writeAll(path, all);
    },
    keys: () => Object.keys(readAll(path)),
  };
}
