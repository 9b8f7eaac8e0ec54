/**
 * The knowledge graph and its file, in the official memory server's format: JSON lines, one
 * `{"type":"entity",…}` or `{"type":"relation",…}` object a line, entities first.
 *
 * Unlike the official server, which reads and parses the whole file for every call, the graph
 * stays in memory and is read again only when the file changed under it (another process
 * wrote it: its inode, size or modification time differ). Calls run one at a time, so two
 * concurrent writes never lose one another. A write goes to a new temp file, is flushed to
 * disk (fsync), and is renamed over the file, so a crash leaves the old graph or the new one,
 * never a part; a call that fails leaves the file as it was.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** A node of the graph. */
export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

/** A directed, typed edge between two entities (by name). */
export interface Relation {
  from: string;
  to: string;
  relationType: string;
}

/** The whole graph. */
export interface KnowledgeGraph {
  entities: Entity[];
  relations: Relation[];
}

/** The graph of one JSONL file. */
export class GraphFile {
  readonly path: string;
  #graph: KnowledgeGraph | undefined;
  /** What the file looked like when `#graph` was read or written: `ino:size:mtime` (ns). */
  #stamp = '';
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.path = file;
  }

  /** Runs `use` on the current graph after every earlier call has finished. */
  read<T>(use: (graph: KnowledgeGraph) => T): Promise<T> {
    return this.#serial(async () => use(await this.#current()));
  }

  /**
   * Runs `change` on the current graph and saves the graph; when `change` throws or the save
   * fails, the graph in memory is dropped (the next call reads the file again) and the error
   * passes on.
   */
  update<T>(change: (graph: KnowledgeGraph) => T): Promise<T> {
    return this.#serial(async () => {
      const graph = await this.#current();
      try {
        const result = change(graph);
        await this.#save(graph);
        return result;
      } catch (error) {
        this.#graph = undefined;
        throw error;
      }
    });
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #stampNow(): Promise<string> {
    try {
      const s = await fs.stat(this.path, { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
  }

  async #current(): Promise<KnowledgeGraph> {
    const stamp = await this.#stampNow();
    if (this.#graph && stamp === this.#stamp) return this.#graph;
    const text = stamp === 'missing' ? '' : await fs.readFile(this.path, 'utf-8');
    this.#graph = parseGraph(text);
    this.#stamp = stamp;
    return this.#graph;
  }

  async #save(graph: KnowledgeGraph): Promise<void> {
    const dir = path.dirname(this.path);
    const temp = path.join(dir, `${path.basename(this.path)}.${randomBytes(16).toString('hex')}.tmp`);
    try {
      const handle = await fs.open(temp, 'wx');
      try {
        await handle.writeFile(formatGraph(graph));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, this.path);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    await syncDirectory(dir);
    this.#stamp = await this.#stampNow();
  }
}

/** Flushes a directory's entries (the rename) to disk, where the platform allows it. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  await handle
    ?.sync()
    .catch(() => undefined)
    .finally(() => handle.close());
}

/**
 * The graph of a JSONL text: blank lines skipped, lines of another `type` ignored, only the
 * known fields kept. @throws SyntaxError for a line that is not JSON (the file is then never overwritten).
 */
export function parseGraph(text: string): KnowledgeGraph {
  const graph: KnowledgeGraph = { entities: [], relations: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const item = JSON.parse(line) as Record<string, unknown>;
    if (item.type === 'entity') graph.entities.push(entityOf(item as unknown as Entity));
    if (item.type === 'relation') graph.relations.push(relationOf(item as unknown as Relation));
  }
  return graph;
}

/** The JSONL text of a graph: entities, then relations, one a line, no final newline. */
function formatGraph(graph: KnowledgeGraph): string {
  return [
    ...graph.entities.map((e) => JSON.stringify({ type: 'entity', ...entityOf(e) })),
    ...graph.relations.map((r) => JSON.stringify({ type: 'relation', ...relationOf(r) })),
  ].join('\n');
}

/** An entity with exactly its three fields, in their order. */
export function entityOf(e: Entity): Entity {
  return { name: e.name, entityType: e.entityType, observations: e.observations };
}

/** A relation with exactly its three fields, in their order. */
export function relationOf(r: Relation): Relation {
  return { from: r.from, to: r.to, relationType: r.relationType };
}
