/**
 * The `Mcp-Param-*` rule: a server checks each header mirrored from a tool argument against
 * the body. Source: 2026-07-28 basic/transports/streamable-http "Server Behavior for Custom
 * Headers", "Server Validation".
 */
import { ERROR_TABLE } from '../../core/index.js';
import type { Answer, ParamProbe } from '../observations.js';
import { codeOf, described, resultOf, type Hit, type Rule } from './kit.js';

const mismatch = ERROR_TABLE.HeaderMismatch.code;

function got(answer: Answer): string {
  return `${answer.http ? `HTTP ${answer.http.status}` : 'no HTTP answer'} and ${described(answer)}`;
}

const refused = (answer: Answer): boolean => answer.http?.status === 400 && codeOf(answer) === mismatch;

function hitsOf(probe: ParamProbe): Hit[] {
  const { tool, header, accepted } = probe;
  if (accepted.failure?.startsWith('HTTP request failed')) return [];
  if (!resultOf(accepted)) {
    // Another error (arguments, the tool itself) is other rules' business; a header refusal is ours.
    if (accepted.http?.status !== 400 && codeOf(accepted) !== mismatch) return [];
    return [
      {
        message: `tools/call ${tool} with every Mcp-Param-* header matching the body got ${got(accepted)}`,
        era: 'modern',
        offending: accepted.response,
      },
    ];
  }
  const cases: [Answer, string][] = [
    [probe.mismatched, `${header} disagreeing with the body`],
    [probe.missing, `${header} missing while its argument is in the body`],
  ];
  return cases
    .filter(([answer]) => !answer.failure?.startsWith('HTTP request failed') && !refused(answer))
    .map(([answer, what]) => ({
      message: `tools/call ${tool} with ${what} got ${got(answer)}, not 400 with ${mismatch}`,
      era: 'modern',
      offending: answer.response,
    }));
}

/** `http.param-mirroring`: mirrored tool arguments are checked against the body. */
export const paramMirroring: Rule = {
  id: 'http.param-mirroring',
  severity: 'error',
  section: 'basic/transports/streamable-http "Server Behavior for Custom Headers"',
  requirement:
    'Any server that processes the message body MUST validate that encoded header values, after decoding if Base64-encoded, match the corresponding values in the request body; it MUST reject requests with 400 Bad Request and HeaderMismatch (-32020) if any validation fails (a header missing while its value is in the body included).',
  check: (seen) => (seen.http?.params ?? []).flatMap(hitsOf),
};
