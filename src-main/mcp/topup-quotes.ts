import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { topUpCreateInput } from '../../src-shared/contract/topups';

/** How long a quote's confirmation token is good for. */
const QUOTE_VALID_MS = 5 * 60_000;
const QUOTES_MAX = 100;

type TopUpInput = z.output<typeof topUpCreateInput>;

interface Quote {
  /** The exact input `topups:create` gets on confirmation, with the attempt id made at quote time. */
  input: TopUpInput;
  expiresAt: number;
}

/**
 * Top-up quotes of one MCP session: `topups_create` answers a quote and a confirmation token, and
 * only `topups_confirm` with that token, within 5 minutes, creates the top-up. The attempt id
 * (the request's Idempotency-Key) is made with the quote and kept: confirming twice, or again after
 * a lost answer, maps to the one top-up. A token is random, single-session and never written down.
 */
export class TopUpQuotes {
  private readonly quotes = new Map<string, Quote>();

  constructor(private readonly now: () => number) {}

  issue(input: Omit<TopUpInput, 'attemptId'>): { token: string; expiresAt: number } {
    this.prune();
    const token = `quote_${randomBytes(18).toString('base64url')}`;
    const expiresAt = this.now() + QUOTE_VALID_MS;
    this.quotes.set(token, { input: { ...input, attemptId: randomUUID() }, expiresAt });
    return { token, expiresAt };
  }

  /** The quote's `topups:create` input, or why not (unknown, or expired). */
  redeem(token: string): { input: TopUpInput } | { problem: string } {
    const quote = this.quotes.get(token);
    if (!quote) return { problem: 'Unknown confirmation token: ask topups_create for a new quote.' };
    if (this.now() >= quote.expiresAt) {
      this.quotes.delete(token);
      return {
        problem: 'This quote expired (quotes are good for 5 minutes): ask topups_create for a new one.',
      };
    }
    return { input: quote.input };
  }

  private prune(): void {
    const now = this.now();
    for (const [token, quote] of this.quotes) if (now >= quote.expiresAt) this.quotes.delete(token);
    // The oldest go first when an agent asks for quote after quote.
    while (this.quotes.size >= QUOTES_MAX) {
      const oldest = this.quotes.keys().next().value;
      if (oldest === undefined) break;
      this.quotes.delete(oldest);
    }
  }
}
