/**
 * The client's one connection at a time: opening it (at most one attempt at once), handing
 * out the live connection, and saying why there is none.
 */
import { McpkitError } from '../core/errors.js';
import type { Transport } from '../core/transport.js';
import { Connection, type ConnectionSetup } from './connection.js';

/** Holds the current {@link Connection}, live or closed. */
export class ConnectionSlot {
  #connection: Connection | undefined;
  #connecting = false;

  /** The last connection, even once closed (what is known of its server stays readable). */
  get last(): Connection | undefined {
    return this.#connection;
  }

  /**
   * Opens a connection over `transport`.
   * @throws McpkitError `INVALID_ARGUMENT` when connected or connecting; as `Connection.open`.
   */
  async open(transport: Transport, setup: ConnectionSetup): Promise<void> {
    if (this.#connecting || (this.#connection && !this.#connection.isClosed)) {
      throw new McpkitError('INVALID_ARGUMENT', 'client is already connected');
    }
    this.#connecting = true;
    try {
      this.#connection = await Connection.open(transport, setup);
    } finally {
      this.#connecting = false;
    }
  }

  /** The live connection, or undefined. */
  live(): Connection | undefined {
    return this.#connection?.isClosed === false ? this.#connection : undefined;
  }

  /**
   * The live connection.
   * @throws McpkitError `CONNECTION_CLOSED`: never connected, or closed (with why it closed).
   */
  connected(): Connection {
    const connection = this.live();
    if (!connection) throw this.#notConnected();
    return connection;
  }

  /** Closes the connection, if any. */
  async close(): Promise<void> {
    await this.#connection?.close();
  }

  #notConnected(): McpkitError {
    const reason: unknown = this.#connection?.closedSignal.reason;
    // A clean close aborts without a reason of its own (an AbortError).
    if (!(reason instanceof Error) || reason.name === 'AbortError') {
      return new McpkitError('CONNECTION_CLOSED', 'client is not connected');
    }
    const message = `the connection to the server is closed: ${reason.message}`;
    return new McpkitError('CONNECTION_CLOSED', message, { cause: reason });
  }
}
