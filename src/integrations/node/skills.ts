/**
 * Skills from a folder: {@link nodeSkillFiles} is the storage of a `SkillCatalogue` over a
 * directory of skill directories, and {@link loadSkillFolder} builds the catalogue. It
 * never follows a symlink: listed symlinks and special files are `other` (the catalogue
 * refuses the skill holding one), a read opens with `O_NOFOLLOW`, checks that the file is
 * regular and within the bound, and that its real directory is still inside the root.
 */
import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { unsafeSkillPath } from '../../core/skills.js';
import {
  SkillCatalogue,
  type SkillCatalogueOptions,
  type SkillFileEntry,
  type SkillFiles,
} from '../../server/index.js';

/** The storage of the skills under `root` (see the module comment). */
export function nodeSkillFiles(root: string): SkillFiles {
  const realRoot = realpath(root);
  const inside = async (path: string, isDir: boolean): Promise<string> => {
    const unsafe = path === '' ? undefined : unsafeSkillPath(path);
    if (unsafe) throw new Error(`path '${path}' ${unsafe}`);
    const base = await realRoot;
    const full = join(base, ...(path === '' ? [] : path.split('/')));
    const dir = await realpath(isDir ? full : dirname(full));
    if (dir !== base && !dir.startsWith(base + sep)) throw new Error(`path '${path}' leaves the catalogue`);
    return full;
  };
  return {
    async list(dir) {
      const entries = await readdir(await inside(dir, true), { withFileTypes: true });
      return entries.map((e): SkillFileEntry => ({
        name: e.name,
        kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other',
      }));
    },
    async read(path, maxBytes) {
      const handle = await open(await inside(path, false), constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new Error('not a regular file');
        if (stat.size > maxBytes) throw new Error(`${stat.size} bytes is over the bound of ${maxBytes}`);
        const bytes = await handle.readFile();
        if (bytes.byteLength > maxBytes) throw new Error(`grew over the bound of ${maxBytes} bytes`);
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * A skill catalogue of every skill directory (one holding a `SKILL.md`) under `root`.
 * See `SkillCatalogue.load` for the options and errors; `problems` lists refused skills.
 */
export function loadSkillFolder(root: string, options?: SkillCatalogueOptions): Promise<SkillCatalogue> {
  return SkillCatalogue.load(nodeSkillFiles(root), options);
}
