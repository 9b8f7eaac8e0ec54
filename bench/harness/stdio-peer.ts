/**
 * The load generator's stdio end: newline-delimited JSON over a child's pipes, requests
 * pipelined and matched to replies by id.
 */
import type { Call, Reply } from './protocol.js';
import type { ServerProcess } from './servers.js';

/** Sends requests over a server's stdin and resolves them from its stdout. */
export class StdioPeer {
  readonly #child: ServerProcess;
  readonly #waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #pending: Buffer[] = [];

  constructor(child: ServerProcess) {
    this.#child = child;
    child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    child.once('exit', (code) => this.#failAll(new Error(`server exited (${code})`)));
  }

  /** Sends one request; resolves with its reply (result or error). @throws when the server exits. */
  request(call: Call): Promise<Reply> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, ...call }) + '\n');
    });
  }

  /** Sends one notification (or any prepared message). */
  send(message: object): void {
    this.#child.stdin.write(JSON.stringify(message) + '\n');
  }

  #read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.#pending).toString('utf8');
      this.#pending = [];
      start = nl + 1;
      if (line.trim() !== '') this.#deliver(JSON.parse(line) as Reply);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #deliver(reply: Reply): void {
    if (typeof reply.id !== 'number') return; // a notification or a server request: ignored
    const waiter = this.#waiting.get(reply.id);
    this.#waiting.delete(reply.id);
    waiter?.resolve(reply);
  }

  #failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}
