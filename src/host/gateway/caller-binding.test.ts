/**
 * What the gateway parks, relays or remembers for a caller is bound to that caller's
 * principal (DESIGN decision 9). A backend pinned to the legacy era asks for input
 * mid-call: alice's call is parked under `gw.<id>.1`; bob, holding a valid token of his
 * own, sends that key with an answer (and no requestState) and must not complete it, nor
 * learn whether it exists; alice's own retry then completes it. Over HTTP with real JWT
 * access tokens, alice and bob at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { modernBody, modernHeaders } from '../../../test/support/http-harness.js';
import { startProtected, type ProtectedServer } from '../../../test/support/protected-server.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

let realm: TokenRealm;
let backend: Served;
let host: Host;
let gateway: Gateway;
let front: ProtectedServer;
const sent: string[] = [];

beforeAll(async () => {
  realm = await startRealm();
  const mail = createServer({ name: 'mail', version: '1.0.0', eras: ['legacy'] });
  mail.tool('send', { description: 'Sends to whom the user names' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Send to whom?',
      requestedSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    });
    const to = String(answer.content?.to);
    sent.push(to);
    return `SENT to ${to}`;
  });
  backend = await serve(mail, { port: 0 });
  host = createHost({
    servers: { mail: { url: backend.url, era: 'legacy' } },
    policy: { elicitation: 'allow' },
  });
  await host.start();
  gateway = createGateway(host);
  front = await startProtected((url) => realm.guard(url), gateway.server);
});

afterAll(async () => {
  await front?.close();
  gateway?.close();
  await host?.close();
  await backend?.close();
  await realm?.close();
});

let nextId = 1;

/** A modern tools/call of `mail__send` by the holder of `token`, with `extra` params (a retry's). */
async function call(token: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const _meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const body = modernBody('tools/call', { name: 'mail__send', arguments: {}, _meta, ...extra }, nextId++);
  const response = await fetch(front.url, {
    method: 'POST',
    headers: { ...modernHeaders(body), authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

const accept = (to: string) => ({ action: 'accept', content: { to } });

describe('a parked gateway call is bound to its caller', () => {
  it("bob cannot answer alice's parked question; alice's retry completes her call", async () => {
    const [alice, bob] = await Promise.all([
      realm.token(front.url, { sub: 'alice' }),
      realm.token(front.url, { sub: 'bob' }),
    ]);
    // Both park a call at once.
    const [first, bobs] = await Promise.all([call(alice), call(bob)]);
    const parked = first.result as { inputRequests: Record<string, unknown>; requestState: string };
    const [key] = Object.keys(parked.inputRequests);
    expect(key).toMatch(/^gw\.[0-9a-f]{32}\.1$/);
    const bobKey = Object.keys((bobs.result as { inputRequests: object }).inputRequests)[0]!;
    expect(bobKey).not.toBe(key);

    // bob answers alice's key: without her requestState, and with it.
    for (const extra of [{}, { requestState: parked.requestState }]) {
      const stolen = await call(bob, { inputResponses: { [key!]: accept('carol') }, ...extra });
      expect(JSON.stringify(stolen)).not.toContain('SENT');
      // Refused (-32602: alice's state is bound to her), or bob's answer to a question his own
      // state never asked is ignored and he is asked again: either way nothing reaches her call.
      if (stolen.error) expect(stolen.error).toMatchObject({ code: -32602 });
      else expect(stolen.result).toMatchObject({ resultType: 'input_required' });
    }
    expect(sent).not.toContain('carol');

    // alice's retry still finds her call, and bob's own call is his.
    const [done, bobDone] = await Promise.all([
      call(alice, { inputResponses: { [key!]: accept('dave') }, requestState: parked.requestState }),
      call(bob, {
        inputResponses: { [bobKey]: accept('erin') },
        requestState: (bobs.result as { requestState: string }).requestState,
      }),
    ]);
    expect(JSON.stringify(done.result)).toContain('SENT to dave');
    expect(JSON.stringify(bobDone.result)).toContain('SENT to erin');
    expect(sent.sort()).toEqual(['dave', 'erin']);
  });
});
