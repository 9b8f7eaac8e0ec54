/**
 * The parsed form of an RFC 6570 template, shared by expansion (uri-template.ts) and
 * matching (uri-template-match.ts). Source: RFC 6570 §2.2–§2.4.
 */

/** An expression operator; `''` is simple string expansion. RFC 6570 §2.2. */
export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of an expression: `name`, `name*` (explode) or `name:3` (prefix). */
export interface VarSpec {
  name: string;
  explode: boolean;
  /** Most characters (code points) of a string value to use; RFC 6570 §2.4.1. */
  prefix?: number;
}

/** One piece of a parsed template: literal text or an expression. */
export type TemplatePart = { literal: string } | { operator: Operator; vars: VarSpec[] };
