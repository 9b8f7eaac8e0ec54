/**
 * Which call a legacy server's input request belongs to, with several calls in flight on
 * one server: over Streamable HTTP the request arrives on its call's POST stream, so the
 * newest call gets its own question even while an older call is still waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Params } from '../core/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { createServer } from '../server/index.js';
import { deferred, until } from '../../test/support/wait.js';
import { createHost, type Host, type InputRequestEvent } from './index.js';

describe('input attribution with concurrent calls to one legacy HTTP server', () => {
  const gate = deferred();
  const started: string[] = [];
  let served: Served;
  let host: Host;

  beforeAll(async () => {
    const server = createServer({ name: 'asker', version: '1.0.0', eras: ['legacy'] });
    server.tool(
      'ask',
      { inputSchema: z.object({ label: z.string(), wait: z.boolean() }) },
      async ({ label, wait }, ctx) => {
        started.push(label);
        if (wait) await gate.promise;
        const answer = await ctx.elicit({
          message: `question of ${label}`,
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        });
        return `${label}: ${JSON.stringify(answer.content)}`;
      },
    );
    served = await serve(server, { port: 0 });
    host = createHost({
      servers: { asker: { url: served.url, era: 'legacy' } },
      policy: { elicitation: 'allow' },
    });
    await host.start();
  });

  afterAll(async () => {
    await host?.close();
    await served?.close();
  });

  /** A call whose input requests are answered (and recorded) as `label`. */
  function call(label: string, wait: boolean, seen: string[]): Promise<unknown> {
    const onInput = async (request: InputRequestEvent): Promise<Params> => {
      seen.push(`${label} got "${String(request.params.message)}"`);
      return { action: 'accept', content: { ok: label === 'A' } };
    };
    return host.callTool('asker__ask', { label, wait }, { onInput });
  }

  it('gives each call its own question, not the oldest call’s', async () => {
    const seen: string[] = [];
    // A is older and waits; B asks first. The oldest-call heuristic would hand B's question to A.
    const a = call('A', true, seen);
    await until(() => started.includes('A'));
    const b = call('B', false, seen);
    expect(await b).toMatchObject({ content: [{ type: 'text', text: 'B: {"ok":false}' }] });
    gate.resolve();
    expect(await a).toMatchObject({ content: [{ type: 'text', text: 'A: {"ok":true}' }] });
    expect(seen).toEqual(['B got "question of B"', 'A got "question of A"']);
  });
});
