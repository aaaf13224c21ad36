import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from '../../../src-renderer/src/shared/components/Countdown';
import { useNow } from '../../../src-renderer/src/shared/ticker';

const START = Date.parse('2026-03-10T12:00:00.000Z');

describe('the shared ticker', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  /** How long until the ticker fires next. */
  const nextTickIn = () => {
    const before = Date.now();
    act(() => void vi.advanceTimersToNextTimer());
    return Date.now() - before;
  };

  let relativeRenders = 0;
  function RelativeReader() {
    relativeRenders += 1;
    return <span data-testid="now">{useNow()}</span>;
  }

  it('runs one interval for countdowns and relative times, at the pace of the fastest', () => {
    relativeRenders = 0;
    const { rerender } = render(
      <>
        <RelativeReader />
        <Countdown until={START + 3000} prefix="in" />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    expect(nextTickIn()).toBe(1000);
    expect(screen.getByRole('timer').textContent).toBe('in 2 s');
    // The relative time follows its 30 s clock, not the second ticks.
    expect(relativeRenders).toBe(1);

    rerender(
      <>
        <RelativeReader />
        <Countdown until={null} prefix="in" />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    expect(relativeRenders).toBe(2); // the rerender's
    // Still a second's pace until the 30 s clock moves, then a tick every 30 s from there.
    act(() => void vi.advanceTimersByTime(29_000));
    expect(relativeRenders).toBe(3);
    expect(screen.getByTestId('now').textContent).toBe(String(START + 30_000));
    expect(nextTickIn()).toBe(30_000);
    expect(relativeRenders).toBe(4);
    expect(screen.getByTestId('now').textContent).toBe(String(START + 60_000));
  });

  it('starts the second clock on a fresh time when a countdown comes while only relative times tick', () => {
    render(<RelativeReader />);
    act(() => void vi.advanceTimersByTime(10_500));
    render(<Countdown until={START + 12_000} prefix="in" />);
    expect(screen.getByRole('timer').textContent).toBe('in 2 s');
    expect(vi.getTimerCount()).toBe(1);
    expect(nextTickIn()).toBe(1000);
    expect(screen.getByRole('timer').textContent).toBe('in 1 s');
  });

  it('reads a fresh time when a tick is a whole step overdue, and gives it to every follower on the next tick', () => {
    render(<Countdown until={START + 60_000} prefix="first in" />);
    // Timers frozen (the machine slept): the clock moved on, the interval did not fire.
    vi.setSystemTime(START + 20_000);
    render(<Countdown until={START + 60_000} prefix="second in" />);
    expect(screen.getByText(/^second in/).textContent).toBe('second in 40 s');
    expect(screen.getByText(/^first in/).textContent).toBe('first in 1:00');
    act(() => void vi.advanceTimersToNextTimer());
    expect(screen.getByText(/^first in/).textContent).toBe('first in 39 s');
    expect(screen.getByText(/^second in/).textContent).toBe('second in 39 s');
  });

  it('stops when nothing follows it', () => {
    const { unmount } = render(
      <>
        <RelativeReader />
        <Countdown until={START + 5000} prefix="in" />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
