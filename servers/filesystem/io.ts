/**
 * The filesystem server's file operations, each on a path already checked by validatePath
 * and checked again where it is used: files are opened without following a symlink
 * (O_NOFOLLOW), the opened file must be a regular file (FIFOs, devices and sockets are
 * refused; O_NONBLOCK keeps a FIFO from hanging the open) with a single link (a hard link
 * may lead out of the roots), and on Linux the opened file's own path (/proc/self/fd) must
 * still be inside the allowed directories, so a swap between check and use is caught.
 * Writes go to a new temp file beside the target and are renamed over it.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { isWithin, normalizePath } from './paths.js';

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const HAS_PROC_FD = process.platform === 'linux';

/** Refuses what is not a plain file, or a file whose other links may lie outside the roots. */
function refuseSpecial(stats: Stats, real: string): void {
  if (stats.isDirectory()) throw new Error('EISDIR: illegal operation on a directory, read');
  if (!stats.isFile()) throw new Error(`Access denied - not a regular file: ${real}`);
  if (stats.nlink > 1)
    throw new Error(
      `Access denied - file has ${stats.nlink} hard links, which may lead outside the allowed directories: ${real}`,
    );
}

/** Checks that an open file is, by its own path, still inside `dirs` (Linux; elsewhere a no-op). */
async function checkOpened(handle: FileHandle, real: string, dirs: readonly string[]): Promise<void> {
  if (!HAS_PROC_FD) return;
  const where = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => real);
  if (!isWithin(normalizePath(where), dirs))
    throw new Error(`Access denied - file outside allowed directories: ${where} not in ${dirs.join(', ')}`);
}

/** Opens a checked path for reading, with the checks described above. The caller closes it. */
export async function openForReading(real: string, dirs: readonly string[]): Promise<FileHandle> {
  const handle = await fs.open(real, READ_FLAGS);
  try {
    refuseSpecial(await handle.stat(), real);
    await checkOpened(handle, real, dirs);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function withFile<T>(
  real: string,
  dirs: readonly string[],
  use: (h: FileHandle) => Promise<T>,
): Promise<T> {
  const handle = await openForReading(real, dirs);
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** A file's text (UTF-8). */
export function readText(real: string, dirs: readonly string[]): Promise<string> {
  return withFile(real, dirs, (h) => h.readFile('utf-8'));
}

/** A file's bytes, base64. */
export function readBase64(real: string, dirs: readonly string[]): Promise<string> {
  return withFile(real, dirs, async (h) => (await h.readFile()).toString('base64'));
}

/** The first `lines` lines of a file, read 1 KiB at a time until they are found. */
export function headText(real: string, dirs: readonly string[], lines: number): Promise<string> {
  return withFile(real, dirs, async (h) => {
    const found: string[] = [];
    const chunk = Buffer.alloc(1024);
    const decoder = new StringDecoder('utf-8');
    let pending = '';
    let offset = 0;
    while (found.length < lines) {
      const { bytesRead } = await h.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      pending += decoder.write(chunk.subarray(0, bytesRead));
      const cut = pending.lastIndexOf('\n');
      if (cut === -1) continue;
      for (const line of pending.slice(0, cut).split('\n')) if (found.length < lines) found.push(line);
      pending = pending.slice(cut + 1);
    }
    pending += decoder.end();
    if (pending.length > 0 && found.length < lines) found.push(pending);
    return found.join('\n');
  });
}

/** The last `lines` lines of a file, read backwards 1 KiB at a time (CRLF read as LF). */
export function tailText(real: string, dirs: readonly string[], lines: number): Promise<string> {
  return withFile(real, dirs, async (h) => {
    const size = (await h.stat()).size;
    if (size === 0) return '';
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(1024);
    let position = size;
    let newlines = 0;
    while (position > 0 && newlines < lines) {
      const length = Math.min(chunk.length, position);
      position -= length;
      const { bytesRead } = await h.read(chunk, 0, length, position);
      if (bytesRead === 0) break;
      const data = Buffer.from(chunk.subarray(0, bytesRead));
      chunks.unshift(data);
      for (const byte of data) if (byte === 0x0a) newlines++;
    }
    const text = Buffer.concat(chunks).toString('utf-8').replace(/\r\n/g, '\n');
    return text.split('\n').slice(-lines).join('\n');
  });
}

/**
 * Replaces (or creates) a file atomically: the content goes to a new temp file beside it
 * (created exclusively, never through a symlink, checked by its own path), which is then
 * renamed over the target. An existing target keeps its permission bits; one that is not a
 * regular file is refused.
 */
export async function writeAtomic(real: string, content: string, dirs: readonly string[]): Promise<void> {
  const existing = await fs.lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && !existing.isFile()) throw new Error(`Access denied - not a regular file: ${real}`);
  const temp = `${real}.${randomBytes(16).toString('hex')}.tmp`;
  const handle = await fs
    .open(temp, CREATE_FLAGS, existing ? existing.mode & 0o777 : 0o666)
    .catch((error: Error) => {
      // Name the file asked for, not the temp file (a missing parent directory fails here).
      error.message = error.message.replace(temp, real);
      throw error;
    });
  try {
    try {
      await checkOpened(handle, temp, dirs);
      await handle.writeFile(content, 'utf-8');
    } finally {
      await handle.close();
    }
    await fs.rename(temp, real);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Creates a directory and its missing parents, then checks where it really is. */
export async function makeDirectory(real: string, dirs: readonly string[]): Promise<void> {
  await fs.mkdir(real, { recursive: true });
  const where = normalizePath(await fs.realpath(real));
  if (!isWithin(where, dirs))
    throw new Error(`Access denied - path outside allowed directories: ${where} not in ${dirs.join(', ')}`);
}

/** Moves a file or directory; refuses when anything (even a symlink) is at the destination. */
export async function moveEntry(source: string, destination: string): Promise<void> {
  const taken = await fs.lstat(destination).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (taken) throw new Error(`Destination already exists: ${destination}`);
  await fs.rename(source, destination);
}

/** The units of {@link formatSize}. */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A byte count as the official server prints it (`1.50 KB`; `0 B`). */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const i = Math.floor(Math.log(bytes) / Math.log(1024));
  if (i <= 0) return `${bytes} B`;
  const unit = Math.min(i, UNITS.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${UNITS[unit]}`;
}

/** The lines of `get_file_info`: size, times, kind and permission bits, as the official server prints them. */
export async function fileInfo(real: string): Promise<string> {
  const stats = await fs.stat(real);
  const info = {
    size: stats.size,
    created: stats.birthtime,
    modified: stats.mtime,
    accessed: stats.atime,
    isDirectory: stats.isDirectory(),
    isFile: stats.isFile(),
    permissions: stats.mode.toString(8).slice(-3),
  };
  return Object.entries(info)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join('\n');
}

/** The MIME types `read_media_file` knows, by extension. */
const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

/** A file's MIME type by extension (`application/octet-stream` when unknown). */
export function mediaType(file: string): string {
  return MEDIA_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}
