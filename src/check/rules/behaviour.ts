/**
 * Rules on behaviour: pagination that ends, stable order, cache hints across pages, the
 * error codes of the probes that change nothing, answers in time, and what the two eras
 * see of the same server.
 */
import { ERROR_TABLE } from '../../core/index.js';
import { itemKey } from '../collect.js';
import type { Answer, EraSeen, ListWalk } from '../observations.js';
import { codeOf, described, isObject, perEra, resultOf, type Hit, type Rule } from './kit.js';

const walks = (era: EraSeen): ListWalk[] => Object.values(era.lists);

const cursorLoop: Rule = {
  id: 'lists.cursor-loop',
  severity: 'error',
  section: 'server/utilities/pagination "Implementation Guidelines"',
  // An error although the line is a SHOULD: a list that never ends hangs every client that follows it.
  requirement: 'Servers SHOULD: Provide stable cursors. (A cursor that comes back never ends the list.)',
  check: (seen) =>
    perEra(seen, (era) =>
      walks(era)
        .filter((walk) => walk.ended === 'loop')
        .map((walk) => ({
          message: `${walk.method} returned a nextCursor it had returned before (page ${walk.pages.length})`,
          era: era.era,
          offending: walk.pages.at(-1)?.response,
        })),
    ),
};

const pageLimit: Rule = {
  id: 'lists.page-limit',
  severity: 'warning',
  section: 'server/utilities/pagination "Pagination Model"',
  requirement: 'Page size is determined by the server; the checker stops after its page bound.',
  check: (seen) =>
    perEra(seen, (era) =>
      walks(era)
        .filter((walk) => walk.ended === 'limit')
        .map((walk) => ({
          message: `${walk.method} still had a nextCursor after ${walk.pages.length} pages; not walked further`,
          era: era.era,
        })),
    ),
};

const stableOrder: Rule = {
  id: 'lists.stable-order',
  severity: 'warning',
  section: 'server/tools "Listing Tools"',
  requirement:
    'Servers SHOULD return tools in a deterministic order (the same ordering across requests when the set has not changed).',
  check: (seen) =>
    perEra(seen, (era) =>
      walks(era).flatMap((walk): Hit[] => {
        if (walk.again === undefined || walk.ended !== 'done') return [];
        const first = walk.items.map(itemKey);
        if (first.join('\n') === walk.again.join('\n')) return [];
        return [
          {
            message: `${walk.method} listed [${first.slice(0, 5).join(', ')}…] then [${walk.again.slice(0, 5).join(', ')}…]`,
            era: era.era,
          },
        ];
      }),
    ),
};

const cacheScope: Rule = {
  id: 'lists.cache-scope',
  severity: 'error',
  section: 'server/utilities/caching "Interaction with Pagination"',
  requirement: 'Servers MUST apply the same cacheScope to all response pages for a given list request.',
  check: (seen) =>
    perEra(seen, (era) =>
      walks(era).flatMap((walk): Hit[] => {
        const scopes = new Set(
          walk.pages.map((page) => resultOf(page)?.cacheScope).filter((s) => s !== undefined),
        );
        return scopes.size > 1
          ? [{ message: `${walk.method} pages have cacheScope ${[...scopes].join(' and ')}`, era: era.era }]
          : [];
      }),
    ),
};

/** Every answer of an era: opening, list pages, calls, probes. */
function answersOf(era: EraSeen): Answer[] {
  return [
    era.opening,
    ...walks(era).flatMap((w) => w.pages),
    ...era.calls.map((c) => c.answer),
    ...Object.values(era.probes),
  ];
}

const noAnswer: Rule = {
  id: 'errors.no-answer',
  severity: 'error',
  section: 'basic "Responses"',
  requirement:
    'Responses are sent in reply to requests, containing either the result or error of the operation (JSON-RPC 2.0: the server MUST reply).',
  check: (seen) =>
    perEra(seen, (era) =>
      answersOf(era)
        .filter((answer) => answer.failure !== undefined && answer.http === undefined)
        .map((answer) => ({
          message: `${String(answer.request.method)} got ${answer.failure ?? ''}`,
          era: era.era,
          offending: answer.request,
        })),
    ),
};

/** A probe rule: the probe's answer must carry `expected`. */
function codeRule(
  options: Omit<Rule, 'check'> & {
    probe: 'unknownMethod' | 'unknownTool' | 'malformedParams';
    expected: number;
  },
): Rule {
  const { probe, expected, ...rule } = options;
  return {
    ...rule,
    check: (seen) =>
      perEra(seen, (era) => {
        const answer = era.probes[probe];
        if (!answer || answer.failure !== undefined || codeOf(answer) === expected) return [];
        return [
          {
            message: `${String(answer.request.method)} (${probe}) got ${described(answer)}, not ${expected}`,
            era: era.era,
            offending: answer.response,
          },
        ];
      }),
  };
}

const unknownMethod = codeRule({
  id: 'errors.unknown-method',
  severity: 'error',
  section: { modern: 'basic "Error Codes"', legacy: 'basic "Error Responses"' },
  requirement:
    'MCP uses the standard JSON-RPC 2.0 error codes: a method the server does not have is -32601 (Method not found).',
  probe: 'unknownMethod',
  expected: ERROR_TABLE.MethodNotFound.code,
});

const unknownTool = codeRule({
  id: 'errors.unknown-tool',
  severity: 'warning',
  section: 'server/tools "Error Handling"',
  requirement:
    'Protocol errors (unknown tool, malformed requests) are returned as standard JSON-RPC errors: -32602 "Unknown tool: …".',
  probe: 'unknownTool',
  expected: ERROR_TABLE.InvalidParams.code,
});

const malformedParams = codeRule({
  id: 'errors.malformed-params',
  severity: 'error',
  section: 'server/tools "Error Handling"',
  requirement:
    'Malformed requests (that fail to satisfy the request schema) are protocol errors: -32602 (Invalid params), as JSON-RPC 2.0 defines.',
  probe: 'malformedParams',
  expected: ERROR_TABLE.InvalidParams.code,
});

const invalidArguments: Rule = {
  id: 'errors.invalid-arguments',
  severity: 'warning',
  section: 'server/tools "Error Handling"',
  requirement:
    'Input validation errors are Tool Execution Errors, reported in tool results with isError: true.',
  check: (seen) =>
    perEra(seen, (era) => {
      const answer = era.probes.invalidArguments;
      if (!answer || answer.failure !== undefined || resultOf(answer)?.isError === true) return [];
      const code = codeOf(answer);
      // -32602 was the rule before 2025-11-25; still common and harmless to clients.
      const severity = code === ERROR_TABLE.InvalidParams.code ? 'info' : 'warning';
      const name = String((answer.request.params as { name?: unknown }).name);
      return [
        {
          message: `${name} called without its required arguments got ${described(answer)}, not a result with isError`,
          era: era.era,
          offending: answer.response,
          severity,
        },
      ];
    }),
};

const CHECKER_CANNOT =
  'asks for input the checker cannot give (elicitation, sampling or roots): call it with arguments that avoid it';

/** What a `--call` got instead of a complete, successful result, or undefined when it succeeded. */
function callFailure(answer: Answer): { what: string; severity: 'error' | 'warning' } | undefined {
  if (answer.failure !== undefined) return undefined; // errors.no-answer's finding
  const code = codeOf(answer);
  if (code !== undefined) {
    const error = isObject(answer.response?.error) ? answer.response.error : {};
    const missing =
      code === ERROR_TABLE.MissingRequiredClientCapability.code ||
      (typeof error.message === 'string' && /capabilit/i.test(error.message));
    const what = `${described(answer)}${missing ? `; it ${CHECKER_CANNOT}` : ''}`;
    return { what, severity: missing ? 'warning' : 'error' };
  }
  const result = resultOf(answer);
  if (result?.resultType === 'input_required')
    return { what: `input_required; it ${CHECKER_CANNOT}`, severity: 'warning' };
  if (result?.isError !== true) return undefined;
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = content.map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : '')).join(' ');
  return {
    what: `a result with isError: true${text ? ` ("${text.slice(0, 200)}")` : ''}`,
    severity: 'error',
  };
}

const callFailed: Rule = {
  id: 'tools.call-failed',
  severity: 'error',
  section: 'server/tools "Calling Tools", "Error Handling"',
  requirement:
    'A tool named with --call is one that is safe to call and expected to succeed with the arguments given; a call that fails checks nothing of its result.',
  check: (seen) =>
    perEra(seen, (era) =>
      era.calls.flatMap((call): Hit[] => {
        const failed = callFailure(call.answer);
        if (!failed) return [];
        return [
          {
            message: `--call ${call.tool} ${JSON.stringify(call.args)} got ${failed.what}`,
            era: era.era,
            offending: call.answer.response,
            severity: failed.severity,
          },
        ];
      }),
    ),
};

const parity: Rule = {
  id: 'parity.lists',
  severity: 'error',
  section: 'server/tools "Listing Tools" (and prompts, resources)',
  requirement:
    'The set of tools MUST NOT vary per-connection: a modern and a legacy client of the same server see the same tools, resources and prompts.',
  check(seen) {
    const [a, b] = seen.eras;
    if (!a || !b) return [];
    return walks(a).flatMap((walk): Hit[] => {
      const other = b.lists[walk.method];
      if (!other || walk.ended !== 'done' || other.ended !== 'done') return [];
      const left = new Set(walk.items.map(itemKey));
      const right = new Set(other.items.map(itemKey));
      const onlyA = [...left].filter((k) => !right.has(k));
      const onlyB = [...right].filter((k) => !left.has(k));
      if (onlyA.length + onlyB.length === 0) return [];
      return [
        {
          message: `${walk.method}: only ${a.era}: [${onlyA.join(', ')}]; only ${b.era}: [${onlyB.join(', ')}]`,
        },
      ];
    });
  },
};

/** The pagination, error-probe and parity rules. */
export const BEHAVIOUR_RULES: readonly Rule[] = [
  cursorLoop,
  pageLimit,
  stableOrder,
  cacheScope,
  noAnswer,
  unknownMethod,
  unknownTool,
  malformedParams,
  invalidArguments,
  callFailed,
  parity,
];
