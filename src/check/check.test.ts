import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Transport, TransportSink } from '../core/index.js';
import { createHttpHandler } from '../server/http/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { encodeHeaderValue } from '../core/runtime.js';
import {
  checkServer,
  expectServerConforms,
  RULES,
  type CheckReport,
  type FetchLike,
  type SafeCall,
} from '../testing/index.js';

const rules = (report: CheckReport): string[] => [...new Set(report.findings.map((f) => f.rule))].sort();
const SLOW = { timeout: 60_000 };

/** Checks the everything server over HTTP through `change`, a fetch that alters requests or answers. */
async function overHttp(
  change: (handler: FetchLike) => FetchLike,
  calls: readonly SafeCall[] = [],
): Promise<CheckReport> {
  const handler = createHttpHandler(createEverythingServer());
  try {
    const fetch = change((request) => handler(request));
    return await checkServer({ kind: 'http', label: 'test', url: 'http://127.0.0.1/mcp', fetch }, { calls });
  } finally {
    await handler.close();
  }
}

/** A copy of `request` with its headers changed by `edit`. */
function withHeaders(
  request: Request,
  edit: (headers: Headers, body: Record<string, unknown>) => void,
  body: string,
): Request {
  const headers = new Headers(request.headers);
  edit(headers, JSON.parse(body || '{}') as Record<string, unknown>);
  return new Request(request.url, { method: request.method, headers, ...(body ? { body } : {}) });
}

describe('the rule table', () => {
  it('gives every rule a unique id, a severity, a spec section and the sentence it rests on', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+\.[a-z-]+$/);
      expect(['error', 'warning', 'info']).toContain(rule.severity);
      expect(rule.requirement.length).toBeGreaterThan(20);
      expect(rule.section).toBeTruthy();
    }
  });
});

describe('expectServerConforms', () => {
  it(
    'passes the everything server on both eras, in memory and over HTTP, with two of its tools called',
    SLOW,
    async () => {
      const reports = await expectServerConforms(createEverythingServer(), {
        http: true,
        calls: [
          { tool: 'test_simple_text', args: {} },
          { tool: 'test_custom_headers', args: { region: 'Zürich', priority: 2 } },
        ],
      });
      expect(reports.map((r) => r.eras.map((e) => e.era))).toEqual([
        ['modern', 'legacy'],
        ['modern', 'legacy'],
      ]);
    },
  );

  it('reports a server that never answers its opening request', async () => {
    const silent: Transport = {
      start: () => undefined,
      send: () => undefined,
      close: () => Promise.resolve(),
    };
    const report = await checkServer(
      { kind: 'transport', label: 'silent', open: () => silent },
      { era: 'modern', timeoutMs: 50, openTimeoutMs: 50 },
    );
    expect(rules(report)).toEqual(['handshake.no-era']);
    expect(report.findings[0]?.message).toContain('no answer within 50 ms');
  });
});

describe('--call of a tool that fails', () => {
  it(
    'reports an isError result as tools.call-failed (error) and an elicitation the checker cannot answer as a warning, on both eras',
    SLOW,
    async () => {
      const handler = createHttpHandler(createEverythingServer());
      const fetch: FetchLike = (request) => handler(request);
      try {
        const report = await checkServer(
          { kind: 'http', label: 'test', url: 'http://127.0.0.1/mcp', fetch },
          {
            calls: [
              { tool: 'test_error_handling', args: {} },
              { tool: 'test_input_required_result_elicitation', args: {} },
              { tool: 'test_simple_text', args: {} },
            ],
          },
        );
        const failed = report.findings.filter((f) => f.rule === 'tools.call-failed');
        const errors = failed.filter((f) => f.severity === 'error');
        expect(errors.map((f) => f.era).sort()).toEqual(['legacy', 'modern']);
        for (const f of errors)
          expect(f.message).toMatch(
            /^--call test_error_handling \{\} got a result with isError: true \("This tool intentionally/,
          );
        const warnings = failed.filter((f) => f.severity === 'warning');
        expect(warnings.map((f) => f.era).sort()).toEqual(['legacy', 'modern']);
        for (const f of warnings)
          expect(f.message).toMatch(
            /^--call test_input_required_result_elicitation \{\} got .*input the checker cannot give/,
          );
        expect(failed.some((f) => f.message.includes('test_simple_text'))).toBe(false);
        expect(report.counts.error).toBeGreaterThanOrEqual(2);
      } finally {
        await handler.close();
      }
    },
  );
});

describe('a hostile server', () => {
  it('that writes junk and never answers is reported, and the check ends in bounded time', async () => {
    let sink: TransportSink | undefined;
    const junk: Transport = {
      start: (s) => void (sink = s),
      send: () => sink?.frame('Starting server... not JSON'),
      close: () => Promise.resolve(sink?.closed()),
    };
    const started = Date.now();
    const report = await checkServer(
      { kind: 'transport', label: 'junk', open: () => junk },
      { timeoutMs: 50, openTimeoutMs: 50 },
    );
    expect(rules(report)).toEqual(['handshake.no-era', 'wire.not-json-rpc']);
    expect(Date.now() - started).toBeLessThan(5000);
    // The same junk on both eras' connections is one finding, cited from the stdio page.
    const junkFindings = report.findings.filter((f) => f.rule === 'wire.not-json-rpc');
    expect(junkFindings).toHaveLength(1);
    expect(junkFindings[0]?.message).toMatch(/^not a JSON-RPC message \(\d+ times\): Starting server/);
    expect(junkFindings[0]?.section).toBe('2026-07-28 basic/transports/stdio');
  });

  it('that closes the connection at once gets a finding, not a crash', async () => {
    let sink: TransportSink | undefined;
    const dying: Transport = {
      start: (s) => void (sink = s),
      send: () => sink?.closed(new Error('exited with code 1')),
      close: () => Promise.resolve(),
    };
    const report = await checkServer(
      { kind: 'transport', label: 'dying', open: () => dying },
      { era: 'legacy' },
    );
    expect(report.findings.map((f) => f.message)).toEqual([
      'initialize got the connection closed: exited with code 1',
    ]);
  });
});

describe('Streamable HTTP rules', () => {
  it('report a server that accepts any Origin', SLOW, async () => {
    const report = await overHttp((next) => async (request) => {
      const body = await request.text();
      return next(withHeaders(request, (h) => h.delete('origin'), body));
    });
    expect(rules(report)).toEqual(['http.origin']);
  });

  it('report a body that is not JSON-RPC once, citing the Streamable HTTP page', SLOW, async () => {
    const report = await overHttp((next) => async (request) => {
      if (request.headers.get('mcp-method') !== 'prompts/list') return next(request);
      return new Response('upstream timed out', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    const junk = report.findings.filter((f) => f.rule === 'wire.not-json-rpc');
    expect(junk.map((f) => f.section)).toEqual([
      '2026-07-28 basic/transports/streamable-http "Sending Messages"',
    ]);
    expect(junk[0]?.message).toMatch(/^not a JSON-RPC message \(\d+ times\): upstream timed out$/);
  });

  it('report a server that does not check the mirrored headers against the body', SLOW, async () => {
    const report = await overHttp((next) => async (request) => {
      const body = await request.text();
      return next(
        withHeaders(
          request,
          (h, parsed) => {
            if (typeof parsed.method === 'string') h.set('mcp-method', parsed.method);
            const name = (parsed.params as { name?: unknown } | undefined)?.name;
            if (typeof name === 'string' && h.has('mcp-name')) h.set('mcp-name', name);
          },
          body,
        ),
      );
    });
    expect(rules(report)).toEqual(['http.header-mismatch', 'http.header-missing', 'http.name-mismatch']);
  });

  const custom: SafeCall[] = [{ tool: 'test_custom_headers', args: { region: 'eu-west1', priority: 7 } }];
  const paramFindings = (report: CheckReport): string[] =>
    report.findings.filter((f) => f.rule === 'http.param-mirroring').map((f) => f.message);

  it('accept the everything server, which checks its Mcp-Param-* headers', SLOW, async () => {
    const report = await overHttp((next) => next, custom);
    expect(rules(report)).toEqual([]);
  });

  it('report a server that refuses a call whose Mcp-Param-* headers are right', SLOW, async () => {
    // In front of the server, something drops every Mcp-Param-* header.
    const report = await overHttp(
      (next) => async (request) => {
        const body = await request.text();
        const drop = (h: Headers): void => {
          const names: string[] = [];
          h.forEach((_value, name) => names.push(name));
          for (const name of names) if (name.startsWith('mcp-param-')) h.delete(name);
        };
        return next(withHeaders(request, drop, body));
      },
      custom,
    );
    // Its --call fails too (the server refuses it), which tools.call-failed reports.
    expect(rules(report)).toEqual(['http.param-mirroring', 'tools.call-failed']);
    expect(paramFindings(report)).toEqual([
      'tools/call test_custom_headers with every Mcp-Param-* header matching the body got HTTP 400 and error -32020 "Header mismatch: Mcp-Param-Region is missing"',
    ]);
  });

  it('report a server that takes a missing Mcp-Param-* header from the body', SLOW, async () => {
    // In front of the server, something fills in a missing Mcp-Param-Region from the body.
    const report = await overHttp(
      (next) => async (request) => {
        const body = await request.text();
        const fill = (h: Headers, parsed: Record<string, unknown>): void => {
          const region = (parsed.params as { arguments?: { region?: unknown } } | undefined)?.arguments
            ?.region;
          if (typeof region === 'string' && !h.has('mcp-param-region'))
            h.set('mcp-param-region', encodeHeaderValue(region));
        };
        return next(withHeaders(request, fill, body));
      },
      custom,
    );
    expect(rules(report)).toEqual(['http.param-mirroring']);
    expect(paramFindings(report)).toEqual([
      'tools/call test_custom_headers with Mcp-Param-Region missing while its argument is in the body got HTTP 200 and a result, not 400 with -32020',
    ]);
  });

  it('report a 401 without protected-resource metadata, and accept one with it', async () => {
    const challenge =
      (metadata: string | undefined): FetchLike =>
      (request) => {
        if (request.method === 'POST')
          return Promise.resolve(
            new Response('', {
              status: 401,
              headers: { 'www-authenticate': metadata ? `Bearer resource_metadata="${metadata}"` : 'Bearer' },
            }),
          );
        if (metadata && request.url === metadata)
          return Promise.resolve(
            Response.json({
              resource: 'http://127.0.0.1/mcp',
              authorization_servers: ['https://as.example'],
            }),
          );
        return Promise.resolve(new Response('', { status: 404 }));
      };
    const check = (fetch: FetchLike): Promise<CheckReport> =>
      checkServer({ kind: 'http', label: 'auth', url: 'http://127.0.0.1/mcp', fetch });
    const bare = await check(challenge(undefined));
    expect(bare.findings.map((f) => `${f.severity} ${f.rule}`)).toEqual([
      'error auth.metadata',
      'info auth.challenge',
      'info handshake.no-era',
    ]);
    const named = await check(challenge('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'));
    expect(named.findings.map((f) => `${f.severity} ${f.rule}`)).toEqual(['info handshake.no-era']);
  });
});

describe('the guide', () => {
  it('lists every rule of the table', () => {
    const guide = readFileSync(fileURLToPath(new URL('../../docs/guide/check.md', import.meta.url)), 'utf8');
    const listed = (id: string, severity: string): boolean =>
      guide
        .split('\n')
        .some((line) => new RegExp(`^\\|\\s*\`${id}\`\\s*\\|\\s*${severity}\\s*\\|`).test(line));
    const missing = RULES.filter((rule) => !listed(rule.id, rule.severity)).map((r) => r.id);
    expect(missing).toEqual([]);
  });
});
