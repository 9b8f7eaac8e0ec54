/**
 * The inspector's bridge with what the Servers and Check views need besides: the catalogue
 * of `--config`, and the target and authorization of the current connection (the contract
 * snapshot and `mcpkit check` open connections of their own to it, verify.ts).
 */
import type { EraPreference } from '../../client/index.js';
import { InspectorBridge, type InspectorBridgeOptions } from './bridge.js';
import type { Catalog } from './catalog.js';
import type { InspectorTarget, TargetAuth } from './target.js';
import { targetLabel, type Connection } from './verify.js';

/** Options of {@link InspectorSession}. */
export interface InspectorSessionOptions extends InspectorBridgeOptions {
  /** The servers of `--config` (the Servers view). */
  catalog?: Catalog | undefined;
}

/** An {@link InspectorBridge} that knows its target and, with `--config`, its catalogue. */
export class InspectorSession extends InspectorBridge {
  /** The servers of `--config`, if it was given. */
  readonly catalog: Catalog | undefined;
  readonly #auth: TargetAuth;
  #target: InspectorTarget | undefined;

  constructor(options: InspectorSessionOptions = {}) {
    super(options);
    this.catalog = options.catalog;
    this.#auth = { login: options.login, bearer: options.bearer };
  }

  override connect(target: InspectorTarget, era: EraPreference): Promise<unknown> {
    this.#target = target;
    return super.connect(target, era);
  }

  /** The connected client, its target and how that target is authorized. @throws Error when not connected. */
  connection(): Connection {
    const client = this.client;
    if (!this.#target) throw new Error('not connected');
    return { client, target: this.#target, auth: this.#auth };
  }

  /** The bridge's state; with a catalogue, `catalog: true` and the server connected to. */
  override state(): unknown {
    const state = super.state() as Record<string, unknown>;
    if (!this.catalog) return state;
    return { ...state, catalog: true, ...(this.#target ? { server: targetLabel(this.#target) } : {}) };
  }
}

/** The bridge as an {@link InspectorSession}. @throws Error for a plain bridge. */
export function sessionOf(bridge: InspectorBridge): InspectorSession {
  if (!(bridge instanceof InspectorSession)) throw new Error('this inspector has no catalogue or check');
  return bridge;
}
