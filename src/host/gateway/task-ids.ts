/**
 * The gateway's task ids: a backend's task id wrapped with the name of its server and a
 * MAC binding both to the principal that created the task. A client can neither reach a
 * task on a server other than the one that made it, nor another principal's task: an id
 * that does not verify for the caller is unknown (-32602), as a backend's unknown id is.
 * Format: `gwt.<server, base64url>.<backend task id, base64url>.<HMAC-SHA256, 128 bits>`.
 * Source: SEP-2663 "Task Creation", "Security Implications".
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { META, TASKS_EXTENSION, WireError, type Params } from '../../core/index.js';

/** Where a gateway task id points. */
export interface TaskRoute {
  readonly server: string;
  readonly taskId: string;
}

/** Most characters of a task id the gateway accepts from a client. */
const MAX_ID_LENGTH = 2048;

/** Wraps and unwraps task ids with one key (random per gateway unless given, e.g. shared by a fleet). */
export class TaskIds {
  readonly #key: Uint8Array;

  constructor(key: Uint8Array = randomBytes(32)) {
    this.#key = key;
  }

  /**
   * The gateway's id for `route`'s task, created for `principal` ('' when anonymous).
   * @throws WireError -32603 when the id would be longer than {@link unwrap} accepts (a
   *   backend's task id of more than about 1 500 characters): an id the client could not use.
   */
  wrap(route: TaskRoute, principal: string): string {
    const refuse = (): WireError =>
      WireError.of(
        'InternalError',
        `server '${route.server}' answered with a task id too long to relay (the gateway's ids hold at most ${MAX_ID_LENGTH} characters)`,
      );
    if (route.taskId.length + route.server.length > MAX_ID_LENGTH) throw refuse();
    const mac = this.#mac(route, principal).toString('base64url');
    const id = `gwt.${b64(route.server)}.${b64(route.taskId)}.${mac}`;
    if (id.length > MAX_ID_LENGTH) throw refuse();
    return id;
  }

  /**
   * The backend task of a gateway id, when it verifies for `principal` and is spelled
   * exactly as {@link wrap} spells it; undefined otherwise.
   */
  unwrap(id: unknown, principal: string): TaskRoute | undefined {
    if (typeof id !== 'string' || id.length > MAX_ID_LENGTH) return undefined;
    const [tag, server, taskId, mac, extra] = id.split('.');
    if (tag !== 'gwt' || !server || !taskId || !mac || extra !== undefined) return undefined;
    const route = { server: unb64(server), taskId: unb64(taskId) };
    // One spelling per task: Node's base64url decoding skips stray characters and padding.
    if (b64(route.server) !== server || b64(route.taskId) !== taskId) return undefined;
    const expected = this.#mac(route, principal);
    const given = Buffer.from(mac, 'base64url');
    if (given.toString('base64url') !== mac) return undefined;
    return given.length === expected.length && timingSafeEqual(given, expected) ? route : undefined;
  }

  #mac(route: TaskRoute, principal: string): Buffer {
    const input = JSON.stringify([principal, route.server, route.taskId]);
    return createHmac('sha256', this.#key).update(input).digest().subarray(0, 16);
  }
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function unb64(text: string): string {
  return Buffer.from(text, 'base64url').toString('utf8');
}

/** True when the request's `_meta` declares the Tasks extension among its client capabilities. */
export function declaresTasks(params: Params | undefined): boolean {
  const meta = params?._meta as Params | undefined;
  const caps = meta?.[META.clientCapabilities] as { extensions?: Record<string, unknown> } | undefined;
  const declared = caps?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}
