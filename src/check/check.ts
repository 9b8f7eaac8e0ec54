/**
 * `checkServer`: connects to a server as a careful client on each era, gathers what it
 * sees (observations), then runs every rule of {@link RULES} over them. Every request is
 * bounded in time, every list in pages, every body in bytes; a server that hangs, lies or
 * dies produces findings, never a hang or a crash of the checker.
 */
import { LocalError, type Era, type Transport } from '../core/index.js';
import { DEFAULT_LIMITS, transportChannel, type Channel, type ChannelLimits } from './channel.js';
import { seeEra, type SafeCall } from './collect.js';
import { httpChannel, type FetchLike, type HttpChannelOptions, type HttpEraHeaders } from './http-channel.js';
import { isLoopback, probeHttp, probeUnauthorized, type LegacyOpened } from './http-probes.js';
import { probeParams } from './param-probes.js';
import type { Answer, EraRefused, EraSeen, Observations } from './observations.js';
import { countFindings, SEVERITIES, type CheckReport, type Finding } from './report.js';
import { RULES } from './rules/index.js';
import { sectionFor, type Rule } from './rules/kit.js';
import { httpProbe, probeSessionState, streamProbe } from './session-state.js';

/** The server to check: a transport opened per connection (stdio, in process), or an HTTP endpoint. */
export type CheckTarget =
  | { kind: 'transport'; label: string; open: () => Transport }
  | { kind: 'http'; label: string; url: string; fetch?: FetchLike; headers?: Record<string, string> };

/** What to check and the bounds to keep. */
export interface CheckOptions {
  /** Which eras to check (default `auto`: both, reporting which the server serves). */
  era?: 'auto' | Era;
  /** Tools safe to call, with their arguments: their results are checked against outputSchema. */
  calls?: readonly SafeCall[];
  /** Longest wait for one answer, in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Longest wait for the first answer of each connection, in milliseconds (default 15 000). */
  openTimeoutMs?: number;
  /** Most pages walked per list (default 50). */
  maxPages?: number;
  /** The rules to run (default {@link RULES}). */
  rules?: readonly Rule[];
}

/**
 * Checks `target`; resolves with the report, never rejects for anything the server does.
 * @throws LocalError `SPAWN_FAILED` when the transport could not start at all (a command
 *   that does not exist), `CONNECTION_CLOSED` when no HTTP request reached a server (a
 *   refused connection, an unknown host): there is nothing to judge, so no findings;
 *   `INVALID_ARGUMENT` when a `calls` tool is not in the tools/list of an era it is checked on.
 */
export async function checkServer(target: CheckTarget, options: CheckOptions = {}): Promise<CheckReport> {
  const started = Date.now();
  const limits: ChannelLimits = {
    ...DEFAULT_LIMITS,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.openTimeoutMs ? { openTimeoutMs: options.openTimeoutMs } : {}),
  };
  const eras: Era[] =
    options.era === undefined || options.era === 'auto' ? ['modern', 'legacy'] : [options.era];
  const observe = target.kind === 'http' ? observeHttp : observeTransport;
  const seen = await observe(target as never, {
    eras,
    limits,
    calls: options.calls ?? [],
    maxPages: options.maxPages ?? 50,
  });
  const unreachable = unreachableWhy(seen);
  if (unreachable !== undefined)
    throw new LocalError(unreachable.code, `could not reach ${target.label}: ${unreachable.why}`);
  const findings = await judge(seen, options.rules ?? RULES);
  return {
    target: target.label,
    eras: seen.eras.map((e) => ({ era: e.era, revision: e.revision, ...serverName(e) })),
    findings,
    counts: countFindings(findings),
    elapsedMs: Date.now() - started,
  };
}

interface Plan {
  eras: Era[];
  limits: ChannelLimits;
  calls: readonly SafeCall[];
  maxPages: number;
}

function emptyObservations(): Observations {
  return { eras: [], refused: [], wire: [], junk: [] };
}

/** Keeps an era's outcome and its wire record (tagged with the revision, or dropped if refused). */
function keep(seen: Observations, outcome: EraSeen | EraRefused, channel: Channel): void {
  seen.junk.push(...channel.junk);
  if (!('revision' in outcome)) {
    seen.refused.push(outcome);
    return;
  }
  seen.eras.push(outcome);
  for (const entry of channel.wire) seen.wire.push({ ...entry, revision: outcome.revision });
}

async function observeTransport(
  target: Extract<CheckTarget, { kind: 'transport' }>,
  plan: Plan,
): Promise<Observations> {
  const seen = emptyObservations();
  const open = (): Channel => transportChannel(target.open(), plan.limits);
  for (const era of plan.eras) {
    const channel = open();
    try {
      keep(
        seen,
        await seeEra({ era, channel, calls: plan.calls, maxPages: plan.maxPages, fresh: open }),
        channel,
      );
    } finally {
      await channel.close();
    }
  }
  if (seen.eras.some((e) => e.era === 'legacy'))
    seen.sessionState = await probeSessionState(
      streamProbe(target.open, plan.limits, modernRevision(seen)),
      plan.calls,
    );
  return seen;
}

/** The revision the modern era was served at, if it was. */
function modernRevision(seen: Observations): string | undefined {
  return seen.eras.find((e) => e.era === 'modern')?.revision;
}

async function observeHttp(
  target: Extract<CheckTarget, { kind: 'http' }>,
  plan: Plan,
): Promise<Observations> {
  const seen = emptyObservations();
  const options: HttpChannelOptions = {
    url: target.url,
    fetch: target.fetch ?? ((request) => fetch(request)),
    limits: plan.limits,
    ...(target.headers ? { headers: target.headers } : {}),
    // In process, the handler reads Host from the Request; over the network only node:http sends it.
    ...(isLoopback(target.url)
      ? { hostFetch: target.fetch ?? (await import('./host-fetch.js')).hostFetch }
      : {}),
  };
  const exchanges: Answer[] = [];
  let legacy: LegacyOpened | undefined;
  for (const era of plan.eras) {
    const headers: HttpEraHeaders = era === 'modern' ? { modern: '2026-07-28' } : { legacy: {} };
    const channel = httpChannel(options, headers);
    const opened = (version: string, answer: Answer): void => {
      const sessionId = answer.http?.headers['mcp-session-id'];
      headers.legacy = { version, ...(sessionId === undefined ? {} : { sessionId }) };
      legacy = { version, ...(sessionId === undefined ? {} : { sessionId }) };
    };
    const fresh = (): Channel => httpChannel(options, { legacy: {} });
    const outcome = await seeEra({ era, channel, calls: plan.calls, maxPages: plan.maxPages, fresh, opened });
    exchanges.push(...channel.exchanges);
    keep(seen, outcome, channel);
    const first = channel.exchanges[0];
    if (first?.http?.status === 401) {
      seen.http = {
        loopback: isLoopback(target.url),
        probes: {},
        exchanges,
        unauthorized: await probeUnauthorized(options, first),
      };
      return seen;
    }
  }
  if (legacy) {
    const initialized = exchanges.find((a) => a.request.method === 'notifications/initialized');
    if (initialized) legacy.initialized = initialized;
  }
  const probes = await probeHttp(options, seen.eras, legacy);
  if (legacy)
    seen.sessionState = await probeSessionState(httpProbe(options, modernRevision(seen)), plan.calls);
  const modern = seen.eras.find((e) => e.era === 'modern');
  const params = modern ? await probeParams(options, modern) : [];
  seen.http = {
    loopback: isLoopback(target.url),
    probes,
    exchanges,
    ...(params.length > 0 ? { params } : {}),
  };
  return seen;
}

/**
 * Why no era could even be tried: the transport could not start, or no HTTP request got
 * any HTTP answer. A server that answered anything at all (junk, an error, a close) is judged.
 */
function unreachableWhy(
  seen: Observations,
): { code: 'SPAWN_FAILED' | 'CONNECTION_CLOSED'; why: string } | undefined {
  if (seen.eras.length > 0 || seen.refused.length === 0 || seen.junk.length > 0) return undefined;
  const answers = seen.refused.map((r) => r.answer);
  if (answers.some((a) => a.response !== undefined || a.http !== undefined)) return undefined;
  const failures = answers.map((a) => a.failure ?? '');
  if (failures.every((f) => f.startsWith('could not start: ')))
    return { code: 'SPAWN_FAILED', why: (failures[0] ?? '').slice('could not start: '.length) };
  if (failures.every((f) => f.startsWith('HTTP request failed: ')))
    return { code: 'CONNECTION_CLOSED', why: (failures[0] ?? '').slice('HTTP request failed: '.length) };
  return undefined;
}

/** Runs every rule; a rule that throws becomes an info finding instead of ending the check. */
async function judge(seen: Observations, rules: readonly Rule[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const rule of rules) {
    let hits;
    try {
      hits = await rule.check(seen);
    } catch (error) {
      hits = [
        {
          message: `the rule itself failed: ${error instanceof Error ? error.message : String(error)}`,
          severity: 'info' as const,
        },
      ];
    }
    for (const hit of hits) {
      const finding: Finding = {
        rule: rule.id,
        severity: hit.severity ?? rule.severity,
        section: sectionFor(hit.section ?? rule.section, hit.era),
        requirement: hit.requirement ?? rule.requirement,
        message: hit.message,
      };
      if (hit.era) finding.era = hit.era;
      if (hit.offending !== undefined) finding.offending = hit.offending;
      findings.push(finding);
    }
  }
  return order(withoutRestated(findings));
}

/** A schema finding about a message another rule already explains says nothing new. */
function withoutRestated(findings: Finding[]): Finding[] {
  const explained = new Set(
    findings.filter((f) => f.rule !== 'wire.schema' && f.offending !== undefined).map((f) => f.offending),
  );
  return findings.filter((f) => f.rule !== 'wire.schema' || !explained.has(f.offending));
}

function order(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.rule.localeCompare(b.rule),
  );
}

function serverName(era: EraSeen): { server?: string } {
  const result = era.opening.response?.result as Record<string, unknown> | undefined;
  const info = (
    era.era === 'legacy'
      ? result?.serverInfo
      : (result?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo']
  ) as { name?: unknown; version?: unknown } | undefined;
  return typeof info?.name === 'string'
    ? { server: `${info.name} ${String(info.version ?? '')}`.trim() }
    : {};
}
