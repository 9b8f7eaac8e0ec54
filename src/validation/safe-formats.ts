/**
 * The `format` checks of ajv-formats, rebuilt so none of them backtracks on V8.
 *
 * Every format that ajv-formats defines as a bare RegExp runs on re2js instead. Three of
 * them use lookaround, which RE2 lacks, and are rewritten as a length check plus an RE2
 * match: `hostname` (≤ 253 characters), `duration` (not empty, `T` followed by a digit)
 * and the non-standard `url` (≤ `maxUrlLength` characters, default 2 083, checked with the original
 * expression, whose cost is polynomial and therefore bounded by the length). Formats that
 * ajv-formats implements as functions (`date`, `time`, `date-time`, `uri`, `byte`, …) use
 * anchored expressions without nested quantifiers and are kept.
 * Source: JSON Schema 2020-12 validation §7.3.
 */
import { activePatternLimits, PATTERN_DEFAULTS } from './patterns.js';
import { safeRegExp, vettedRegExp } from './safe-regexp.js';

type FormatCheck = (value: string) => boolean;
type FormatDefinition = unknown;

interface FormatHost {
  addFormat(name: string, format: FormatCheck | { validate: FormatCheck; compare?: unknown }): unknown;
}

const REWRITTEN: Record<string, (original: RegExp) => FormatCheck> = {
  hostname: () => {
    const labels = safeRegExp(
      '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$',
      'i',
      PATTERN_DEFAULTS,
    );
    return (s) => s.replace(/\.$/, '').length <= 253 && s.length > 0 && labels.test(s);
  },
  duration: () => {
    const shape = safeRegExp(
      '^P(?:(\\d+Y)?(\\d+M)?(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+S)?)?|(\\d+W)?)$',
      '',
      PATTERN_DEFAULTS,
    );
    return (s) => s !== 'P' && !s.endsWith('T') && shape.test(s);
  },
  url: (original) => (s) => s.length <= activePatternLimits().maxUrlLength && original.test(s),
};

function linear(name: string, regex: RegExp): FormatCheck {
  const rewrite = REWRITTEN[name];
  if (rewrite) return rewrite(regex);
  const compiled = vettedRegExp(regex.source, regex.flags);
  return (s) => compiled.test(s);
}

/**
 * Replaces, on an ajv instance that already has ajv-formats, every RegExp-based format with
 * its linear-time check. `formats` is ajv-formats' `fullFormats` table.
 */
export function useLinearFormats(ajv: FormatHost, formats: Record<string, FormatDefinition>): void {
  for (const [name, format] of Object.entries(formats)) {
    if (format instanceof RegExp) ajv.addFormat(name, linear(name, format));
    const validate = (format as { validate?: unknown } | null)?.validate;
    if (validate instanceof RegExp)
      ajv.addFormat(name, { ...(format as object), validate: linear(name, validate) });
  }
}

/**
 * The string checks of ajv-formats' `formats` table, RegExp-based ones made linear as above:
 * the same verdicts ajv gives, for an interpreting validator. Formats of numbers
 * (`int32`, `double`, …) and asynchronous ones are left out: they never apply to strings.
 */
export function linearStringFormats(formats: Record<string, FormatDefinition>): Map<string, FormatCheck> {
  const checks = new Map<string, FormatCheck>();
  for (const [name, format] of Object.entries(formats)) {
    if (format instanceof RegExp) checks.set(name, linear(name, format));
    else if (typeof format === 'function') checks.set(name, format as FormatCheck);
    else {
      const definition = format as { validate?: unknown; type?: unknown; async?: unknown } | null;
      if (definition?.type === 'number' || definition?.async === true) continue;
      const validate = definition?.validate;
      if (validate instanceof RegExp) checks.set(name, linear(name, validate));
      else if (typeof validate === 'function') checks.set(name, validate as FormatCheck);
    }
  }
  return checks;
}
