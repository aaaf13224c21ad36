import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatRelative,
  formatUsd,
  humanize,
  percentOf,
} from '../../../../src-renderer/src/shared/format/format';

describe('formats', () => {
  it('formats bytes in decimal units, as the service bills them', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.00 kB');
    expect(formatBytes(1_500_000)).toBe('1.50 MB');
    expect(formatBytes(12_500_000_000)).toBe('12.5 GB');
    expect(formatBytes(250_000_000_000)).toBe('250 GB');
    expect(formatBytes(3_200_000_000_000)).toBe('3.20 TB');
    expect(formatBytes(Number.NaN)).toBe('—');
  });

  it('gives a clamped percentage, or null without a total', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(6, 5)).toBe(100);
    expect(percentOf(1, 0)).toBeNull();
  });

  it('shows money exactly as it arrived, never through a float', () => {
    expect(formatUsd('0.10')).toBe('0.10 USD');
    expect(formatUsd('10000.00')).toBe('10000.00 USD');
    expect(formatUsd('12345678901234567890.01')).toBe('12345678901234567890.01 USD');
  });

  it('says how long ago or how soon, coarsely', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(formatRelative('2026-03-10T11:59:55Z', now)).toBe('just now');
    expect(formatRelative('2026-03-10T11:59:30Z', now)).toBe('30 s ago');
    expect(formatRelative('2026-03-10T11:57:00Z', now)).toBe('3 min ago');
    expect(formatRelative('2026-03-10T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('2026-03-12T12:00:00Z', now)).toBe('in 2 d');
    expect(formatRelative('garbage', now)).toBe('');
  });

  it('makes status values readable, including unknown ones', () => {
    expect(humanize('awaiting_payment')).toBe('Awaiting payment');
    expect(humanize('mobile-gb')).toBe('Mobile gb');
    expect(humanize('something_new')).toBe('Something new');
  });
});
