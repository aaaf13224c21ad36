import { describe, expect, it } from 'vitest';
import { TopUpQuotes } from '../../src-main/mcp/topup-quotes';

const input = { amountUsd: '25.00', coin: 'USDT', network: 'tron' };

describe('top-up quotes', () => {
  it('redeems a token for 5 minutes, always with the attempt id made with the quote', () => {
    let now = 1_000_000;
    const quotes = new TopUpQuotes(() => now);
    const { token, expiresAt } = quotes.issue(input);
    expect(expiresAt).toBe(now + 5 * 60_000);
    const first = quotes.redeem(token);
    const again = quotes.redeem(token);
    expect(first).toEqual(again);
    expect(first).toMatchObject({ input: { ...input, attemptId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    now += 5 * 60_000 - 1;
    expect('input' in quotes.redeem(token)).toBe(true);
    now += 1;
    expect(quotes.redeem(token)).toEqual({
      problem: 'This quote expired (quotes are good for 5 minutes): ask topups_create for a new one.',
    });
    expect('problem' in quotes.redeem(token)).toBe(true);
  });

  it('knows only the tokens it issued, each with its own attempt', () => {
    const quotes = new TopUpQuotes(() => 0);
    const a = quotes.issue(input);
    const b = quotes.issue(input);
    expect(a.token).not.toBe(b.token);
    const attempt = (token: string) => {
      const quote = quotes.redeem(token);
      return 'input' in quote ? quote.input.attemptId : null;
    };
    expect(attempt(a.token)).not.toBe(attempt(b.token));
    expect('problem' in quotes.redeem('quote_forged')).toBe(true);
  });
});
