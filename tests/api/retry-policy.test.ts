import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_OPTIONS,
  isRetryableStatus,
  parseRetryAfter,
} from '../../src-main/api/retry-policy';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 17 ', NOW)).toBe(17_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter(['3', '9'], NOW)).toBe(3000);
  });

  it('reads an HTTP date against the given clock, never negative', () => {
    expect(parseRetryAfter('Tue, 10 Mar 2026 12:00:45 GMT', NOW)).toBe(45_000);
    expect(parseRetryAfter('Tue, 10 Mar 2026 11:59:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Tuesday, 10-Mar-26 12:01:00 GMT', NOW)).toBe(60_000);
  });

  it('ignores junk', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter('', NOW)).toBeNull();
    expect(parseRetryAfter('-5', NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('12:00', NOW)).toBeNull();
  });
});

describe('backoffDelayMs', () => {
  const options = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles each retry, half fixed and half jitter', () => {
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, options, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, options, () => 0.999999))).toEqual([100, 200, 400]);
  });

  it('never exceeds maxDelayMs and clamps a random outside [0, 1)', () => {
    expect(backoffDelayMs(10, options, () => 5)).toBe(1000);
    expect(backoffDelayMs(10, options, () => -1)).toBe(500);
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 5xx except 501 and 505', () => {
    expect([408, 429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 422, 501, 505].some(isRetryableStatus)).toBe(false);
  });
});
