/**
 * Watching the files a server definition is made of. The folders are watched, not the
 * files, because editors save by writing a new file and renaming it over the old one (a
 * watch on the old file would go quiet); events for other files in those folders are
 * ignored. A burst of events (a save, a formatter, a branch switch) becomes one call,
 * `quietMs` after the last event.
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';

/** See the module comment. */
export class FileWatcher {
  readonly #onChange: () => void;
  readonly #quietMs: number;
  readonly #folders = new Map<string, FSWatcher>();
  #files = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  /** Calls `onChange` once per burst of changes to the watched files, `quietMs` after the last. */
  constructor(onChange: () => void, quietMs = 25) {
    this.#onChange = onChange;
    this.#quietMs = quietMs;
  }

  /** How many files are watched. */
  get size(): number {
    return this.#files.size;
  }

  /** The files watched. */
  get files(): readonly string[] {
    return [...this.#files];
  }

  /** Watches exactly `files` (absolute paths) from now on. */
  watch(files: Iterable<string>): void {
    this.#files = new Set(files);
    const folders = new Set([...this.#files].map((file) => dirname(file)));
    for (const [folder, watcher] of this.#folders)
      if (!folders.has(folder)) {
        watcher.close();
        this.#folders.delete(folder);
      }
    for (const folder of folders) {
      if (this.#folders.has(folder)) continue;
      try {
        const watcher = watch(folder, (_event, name) => this.#heard(folder, name));
        watcher.on('error', () => this.#folders.delete(folder));
        this.#folders.set(folder, watcher);
      } catch {
        // A folder that vanished: its files are gone, and the next load says so.
      }
    }
  }

  #heard(folder: string, name: string | Buffer | null): void {
    if (name !== null && !this.#files.has(join(folder, name.toString()))) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onChange, this.#quietMs);
  }

  /** Stops watching. */
  close(): void {
    clearTimeout(this.#timer);
    for (const watcher of this.#folders.values()) watcher.close();
    this.#folders.clear();
  }
}
