/**
 * The shape of a rule and the helpers rules share. A rule is one small unit: a stable id,
 * a severity, the spec section and sentence it rests on, and a pure function from the
 * observations to hits. Adding a check means adding one entry to a table.
 */
import { LATEST_LEGACY_REVISION, LATEST_REVISION, type Era } from '../../core/index.js';
import type { Severity } from '../report.js';
import type { Answer, EraSeen, Json, Observations } from '../observations.js';

/** One thing a rule found. */
export interface Hit {
  message: string;
  /** The era it was seen on (picks the revision named in the section). */
  era?: Era;
  /** The offending message or value. */
  offending?: unknown;
  /** A milder or harsher severity than the rule's own, when the rule says why. */
  severity?: Severity;
  /** Another section than the rule's own, when the transport decides (stdio or HTTP). */
  section?: Section;
  /** The sentence of that section. */
  requirement?: string;
}

/** A spec section: one for both eras, or one per era when the pages differ. */
export type Section = string | { modern: string; legacy: string };

/** One check. */
export interface Rule {
  /** Stable id, `area.name`. */
  id: string;
  severity: Severity;
  /** Page and heading under the revision, e.g. `server/tools "Tool Names"`. */
  section: Section;
  /** The spec's sentence, quoted. */
  requirement: string;
  check(seen: Observations): Hit[] | Promise<Hit[]>;
}

/** The revision a section is cited from for hits of `era` (no era: the modern one). */
function revisionFor(era: Era | undefined): string {
  return era === 'legacy' ? LATEST_LEGACY_REVISION : LATEST_REVISION;
}

/** The cited section for a hit. */
export function sectionFor(section: Section, era: Era | undefined): string {
  const page = typeof section === 'string' ? section : section[era ?? 'modern'];
  return `${revisionFor(era)} ${page}`;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error code of an answer, if it is an error response. */
export function codeOf(answer: Answer | undefined): number | undefined {
  const error = answer?.response?.error;
  return isObject(error) && typeof error.code === 'number' ? error.code : undefined;
}

/** The result of an answer, if it is a result response. */
export function resultOf(answer: Answer | undefined): Json | undefined {
  const result = answer?.response?.result;
  return isObject(result) ? result : undefined;
}

/** What an answer was, in a few words, for messages. */
export function described(answer: Answer | undefined): string {
  if (!answer) return 'nothing';
  if (answer.failure !== undefined) return answer.failure;
  const code = codeOf(answer);
  if (code !== undefined) {
    const message = (answer.response?.error as Json).message;
    return `error ${code}${typeof message === 'string' ? ` "${message.replace(/\s+/g, ' ').slice(0, 120)}"` : ''}`;
  }
  return resultOf(answer) ? 'a result' : 'an unreadable answer';
}

/** Runs `each` over every era seen and concatenates its hits. */
export function perEra(seen: Observations, each: (era: EraSeen) => Hit[]): Hit[] {
  return seen.eras.flatMap(each);
}

/** The tools listed on an era. */
export function toolsOf(era: EraSeen): Json[] {
  return era.lists['tools/list']?.items ?? [];
}

/** Every listed item with the list it came from. */
export function listedItems(era: EraSeen): Json[] {
  return Object.values(era.lists).flatMap((walk) => walk.items);
}
