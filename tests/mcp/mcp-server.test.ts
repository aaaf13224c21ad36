import { describe, expect, it } from 'vitest';
import { nextStep } from '../../src-main/mcp/mcp-server';

// What a tool error tells the agent to do next, by its code (the stdio tests see it in context).
describe('nextStep', () => {
  it('says how to ask for less when an answer is too large', () => {
    expect(nextStep({ code: 'answer_too_large', message: 'too large' }, 'ports_history')).toBe(
      'Call ports_history again for less: a smaller limit or perPage, or one item by its id.',
    );
  });

  it('waits out a cooldown, fixes bad arguments, and does not retry a scope refusal', () => {
    expect(nextStep({ code: 'rate_limited', message: 'wait', retryAfterMs: 27_200 }, 'ports_rotate')).toBe(
      'Wait 28 s, then call ports_rotate again.',
    );
    expect(nextStep({ code: 'invalid_input', message: 'bad', fields: [] }, 'ports_get')).toMatch(
      /^Fix the arguments named in fields and call ports_get again/,
    );
    expect(nextStep({ code: 'scope_denied', message: 'no', scope: 'rotate' }, 'ports_rotate')).toMatch(
      /--scopes including rotate; do not retry/,
    );
  });
});
