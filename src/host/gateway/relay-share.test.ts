/**
 * The gateway holds backend `requestState`s for modern clients' retries within per-principal
 * shares (issue 35 §1): bob holding his tenth of the table, or sending a state over 1 MiB,
 * never keeps alice's state from being held, and hers still goes back with her retry.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Params } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import { RelayStates } from './relay.js';

const HANDLE_KEY = 'io.mcpkit/gateway-relay';

// The fake front ctx below is not a server's request scope: what the relay keeps in the
// request's next requestState is recorded by the fake's own `remember`.
vi.mock('../../server/index.js', async (original) => ({
  ...(await original<typeof import('../../server/index.js')>()),
  keepInRequestState: (
    ctx: { remember: (key: string, value: unknown) => boolean },
    key: string,
    value: unknown,
  ) => ctx.remember(key, value),
}));

/** A front request context that records the relay round it would seal; its questions never settle. */
function front(subject: string): { ctx: RequestContext; sealed: () => unknown } {
  let remembered: unknown;
  const ctx = {
    auth: { subject },
    clientCapabilities: { elicitation: {} },
    inputResponses: {},
    remember: (key: string, value: unknown) => ((remembered = key === HANDLE_KEY ? value : remembered), true),
    elicit: () => new Promise(() => undefined),
  } as unknown as RequestContext;
  return { ctx, sealed: () => remembered };
}

const asked = (state: string): Params => ({
  resultType: 'input_required',
  inputRequests: {
    q: {
      method: 'elicitation/create',
      params: { message: 'q?', requestedSchema: { type: 'object', properties: {} } },
    },
  },
  requestState: state,
});

function retry(subject: string, round: unknown): RequestContext {
  return {
    auth: { subject },
    clientCapabilities: {},
    inputResponses: { [HANDLE_KEY]: round, q: { action: 'accept', content: {} } },
  } as unknown as RequestContext;
}

describe('backend requestStates held by the gateway, per principal', () => {
  it("holds alice's state after bob tried to fill the table and sent one over 1 MiB", async () => {
    const relays = new RelayStates(60_000, 20);
    for (let i = 0; i < 20; i++) void relays.answer(front('bob').ctx, `sig-b${i}`, asked(`bob-${i}`));
    void relays.answer(front('bob').ctx, 'sig-big', asked('x'.repeat(1024 * 1024 + 1)));
    const alice = front('alice');
    void relays.answer(alice.ctx, 'sig-a', asked('alice-state'));
    const fields = relays.fieldsFor(retry('alice', alice.sealed()), 'sig-a');
    expect(fields.requestState).toBe('alice-state');
    expect(fields.inputResponses).toEqual({ q: { action: 'accept', content: {} } });
  });

  it("does not hold bob's states beyond his tenth of the table", () => {
    const relays = new RelayStates(60_000, 20);
    const rounds = Array.from({ length: 3 }, (_, i) => {
      const bob = front('bob');
      void relays.answer(bob.ctx, `sig-${i}`, asked(`bob-${i}`));
      return bob.sealed();
    });
    expect(relays.fieldsFor(retry('bob', rounds[0]), 'sig-0').requestState).toBe('bob-0');
    expect(relays.fieldsFor(retry('bob', rounds[1]), 'sig-1').requestState).toBe('bob-1');
    expect(relays.fieldsFor(retry('bob', rounds[2]), 'sig-2').requestState).toBeUndefined();
  });
});
