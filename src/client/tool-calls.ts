/**
 * `tools/call` as the client makes it: the output check against the tool's `outputSchema`
 * (listing the tools first when the tool is unknown), and the Tasks extension's handles.
 * Source: 2026-07-28 server/tools "Output schema"; the Tasks extension (SEP-2663).
 */
import { McpkitError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import type { RequestOptions } from '../core/peer.js';
import { TASKS_EXTENSION } from '../core/tasks.js';
import type { SubscriptionFilter, Tool } from '../core/types/index.js';
import type { SchemaLimits } from '../validation/index.js';
import type { Connection } from './connection.js';
import type { ResultOf } from './request-types.js';
import type { Subscription } from './subscription.js';
import { TaskHandle, type TaskPort, type TaskReference } from './tasks.js';
import { ToolOutputChecker } from './tool-output.js';

/** Options of `Client.callTool`. */
export interface ToolCallOptions extends RequestOptions {
  /** `'allow'`: declare the Tasks extension; the server may answer with a task (a {@link TaskHandle}). */
  task?: 'allow' | 'never';
}

const TASKS = { [TASKS_EXTENSION]: {} };

/** What tool calls need from their client. */
export interface ToolCallHost {
  connected(): Connection;
  /** `tools/list`, every page (records the tools here too). */
  listTools(): Promise<Tool[]>;
  listen(filter: SubscriptionFilter): Subscription;
}

/** The client's tool calls and the tool definitions their results are checked against. */
export class ToolCalls {
  readonly #host: ToolCallHost;
  readonly #checker: ToolOutputChecker;

  constructor(host: ToolCallHost, limits: SchemaLimits = {}) {
    this.#host = host;
    this.#checker = new ToolOutputChecker({ maxBytes: 256 * 1024, ...limits });
  }

  /** Records listed tools: a whole list (`complete`) replaces what is known, a page adds to it. */
  record(tools: readonly Tool[], complete: boolean): void {
    this.#checker.record(tools, complete);
  }

  /** Forgets every tool (a new connection, or a tools list_changed). */
  forget(): void {
    this.#checker.forget();
  }

  /**
   * `tools/call`, checked against the tool's `outputSchema` (see `Client.callTool`).
   * @throws McpkitError `INVALID_RESULT` on a missing or mismatching `structuredContent`.
   */
  async call(
    name: string,
    args: { [key: string]: unknown } | undefined,
    options: ToolCallOptions,
  ): Promise<ResultOf<'tools/call'> | TaskHandle> {
    await this.#checker.ensureListed(name, () => this.#host.listTools());
    const params = args === undefined ? { name } : { name, arguments: args };
    const { task, ...rest } = options;
    const callOptions = task === 'allow' ? { ...rest, extensions: TASKS, acceptTask: true } : rest;
    const result = (await this.#host
      .connected()
      .roundTrip('tools/call', params, callOptions)) as ResultOf<'tools/call'>;
    if (task === 'allow' && result.resultType === 'task') return this.#taskHandle(name, result);
    await this.#checker.check(name, result);
    return result;
  }

  /** A handle on a task from its serialised {@link TaskReference}. */
  resume(reference: TaskReference): TaskHandle {
    return new TaskHandle(this.#taskPort(), reference);
  }

  #taskHandle(name: string, created: Params): TaskHandle {
    if (typeof created.taskId !== 'string')
      throw new McpkitError('INVALID_RESULT', 'tools/call: a task result without a taskId');
    const reference: TaskReference = { taskId: created.taskId, toolName: name };
    if (typeof created.pollIntervalMs === 'number') reference.pollIntervalMs = created.pollIntervalMs;
    return new TaskHandle(this.#taskPort(), reference);
  }

  #taskPort(): TaskPort {
    const host = this.#host;
    return {
      request: (method, params) => host.connected().roundTrip(method, params, { extensions: TASKS }),
      answerInputs: (label, requests, signal) => host.connected().answerInputs(label, requests, signal),
      listen: (taskId) => host.listen({ taskIds: [taskId] }),
      checkResult: async (name, result) => {
        await this.#checker.ensureListed(name, () => host.listTools());
        await this.#checker.check(name, result as ResultOf<'tools/call'>);
      },
    };
  }
}
