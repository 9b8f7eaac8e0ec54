/** The rule table: every check `mcpkit check` runs, in the order findings are grouped. */
import { BEHAVIOUR_RULES } from './behaviour.js';
import { HTTP_RULES } from './http.js';
import type { Rule } from './kit.js';
import { PROTOCOL_RULES } from './protocol.js';
import { SESSION_STATE_RULES } from './session-state.js';
import { TOOL_RULES } from './tools.js';

/** Every rule, each with its id, severity and spec section. */
export const RULES: readonly Rule[] = [
  ...PROTOCOL_RULES,
  ...TOOL_RULES,
  ...BEHAVIOUR_RULES,
  ...SESSION_STATE_RULES,
  ...HTTP_RULES,
];
