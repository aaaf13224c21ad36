import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Time } from '../../../../src-renderer/src/shared/components/Time';

const START = Date.parse('2026-03-10T12:00:00.000Z');

describe('Time', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const cells = (count: number) =>
    Array.from({ length: count }, (_, index) => (
      <Time key={index} iso={new Date(START - 5 * 60_000).toISOString()} relative />
    ));

  it('shares one ticker between every relative time, and stops it when none is shown', () => {
    const { unmount } = render(<div>{cells(200)}</div>);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps every relative time true as the clock moves', () => {
    render(<div data-testid="cells">{cells(3)}</div>);
    expect(screen.getAllByText('(5 min ago)')).toHaveLength(3);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getAllByText('(6 min ago)')).toHaveLength(3);
  });

  it('says "just now" for a time after the last tick, not "in 15 s"', () => {
    render(<Time iso={new Date(START - 60_000).toISOString()} relative />);
    act(() => void vi.advanceTimersByTime(25_000));
    const changed = new Date(START + 15_000).toISOString();
    render(<Time iso={changed} relative />);
    expect(screen.getByText('(just now)')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(35_000));
    expect(screen.getByText('(45 s ago)')).toBeTruthy();
  });

  it('takes a fresh time when the ticker was stopped (nothing was shown)', () => {
    const { unmount } = render(<Time iso={new Date(START).toISOString()} relative />);
    unmount();
    act(() => void vi.advanceTimersByTime(10 * 60_000));
    render(<Time iso={new Date(START).toISOString()} relative />);
    expect(screen.getByText('(10 min ago)')).toBeTruthy();
  });

  it('needs no ticker for an absolute time', () => {
    render(<Time iso="2026-03-10T11:00:00.000Z" />);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows the user’s locale, with the exact UTC time on hover', () => {
    render(<Time iso="2026-03-10T09:05:07.000Z" />);
    const time = screen.getByText((_, element) => element?.tagName === 'TIME');
    expect(time.getAttribute('title')).toBe('2026-03-10 09:05:07 UTC');
    expect(time.getAttribute('dateTime')).toBe('2026-03-10T09:05:07.000Z');
    expect(time.textContent).not.toContain('2026-03-10T');
  });
});
