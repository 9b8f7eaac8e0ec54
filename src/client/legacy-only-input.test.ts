import { describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import { legacyOnlyInputWarning } from './legacy-only-input.js';

describe('legacyOnlyInputWarning', () => {
  it("recognises Python mcp's error and FastMCP's error result", () => {
    const sdk = new WireError(
      -32600,
      "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.",
    );
    expect(legacyOnlyInputWarning('ask', sdk)).toContain("era 'legacy'");
    const fastmcp = {
      isError: true,
      content: [
        {
          type: 'text',
          text: 'elicitation via server-initiated requests is unavailable on 2026-07-28 connections.',
        },
      ],
    };
    expect(legacyOnlyInputWarning('ask', fastmcp)).toContain("tool 'ask'");
  });

  it('says nothing of other failures, of successes, or of phrases far into a long text', () => {
    expect(legacyOnlyInputWarning('t', new WireError(-32603, 'database unavailable'))).toBeUndefined();
    expect(
      legacyOnlyInputWarning('t', {
        content: [{ type: 'text', text: 'server-initiated requests unavailable' }],
      }),
    ).toBeUndefined();
    const long = {
      isError: true,
      content: [{ type: 'text', text: `${'x'.repeat(600)} server-initiated requests unavailable` }],
    };
    expect(legacyOnlyInputWarning('t', long)).toBeUndefined();
  });
});
