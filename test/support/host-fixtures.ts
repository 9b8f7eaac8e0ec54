/**
 * Real servers for the host and gateway tests: the official reference servers from
 * node_modules (run as `node <entry>`, no npx) on a fresh temporary folder, and our
 * everything server over Streamable HTTP on a random loopback port.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Served } from '../../src/integrations/node/index.js';
import type { Host, ServersConfig } from '../../src/host/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { referenceEntry } from '../interop/helpers.js';

/** The four servers of the host configuration, and how to stop them. */
export interface HostFixture {
  dir: string;
  config: ServersConfig;
  ours: Served;
  cleanup(): Promise<void>;
}

/** Starts our everything server over HTTP and writes a temp folder with `hello.txt`. */
export async function hostFixture(): Promise<HostFixture> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-host-')));
  writeFileSync(join(dir, 'hello.txt'), 'hello from the host test\n');
  const ours = await serve(createEverythingServer(), { port: 0 });
  const node = process.execPath;
  const config: ServersConfig = {
    filesystem: { command: node, args: [referenceEntry('server-filesystem'), dir] },
    everything: { command: node, args: [referenceEntry('server-everything')] },
    memory: {
      command: node,
      args: [referenceEntry('server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    },
    ours: { url: ours.url },
  };
  return {
    dir,
    config,
    ours,
    cleanup: async () => {
      await ours.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while a process with this id exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves with the first value `check` returns that is not undefined, polling on host events. */
export function until<T>(
  subscribe: (wake: () => void) => () => void,
  check: () => T | undefined,
): Promise<T> {
  return new Promise((resolve) => {
    const now = check();
    if (now !== undefined) return resolve(now);
    const off = subscribe(() => {
      const value = check();
      if (value === undefined) return;
      off();
      resolve(value);
    });
  });
}

/** Waits for `check` to hold, re-checking on every status and registry change of `host`. */
export function whenHost<T>(host: Host, check: () => T | undefined): Promise<T> {
  return until((wake) => {
    const offs = [host.on('status', wake), host.on('change', wake)];
    return () => offs.forEach((off) => off());
  }, check);
}
