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
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getAllByText('(6 min ago)')).toHaveLength(3);
  });

  it('reads a fresh time for a cell shown between two ticks', () => {
    render(<Time iso={new Date(START - 60_000).toISOString()} relative />);
    act(() => vi.advanceTimersByTime(25_000));
    const changedNow = new Date(START + 25_000 - 15_000).toISOString();
    render(<Time iso={changedNow} relative />);
    expect(screen.getByText('(15 s ago)')).toBeTruthy();
  });

  it('needs no ticker for an absolute time', () => {
    render(<Time iso="2026-03-10T11:00:00.000Z" />);
    expect(vi.getTimerCount()).toBe(0);
  });
});
