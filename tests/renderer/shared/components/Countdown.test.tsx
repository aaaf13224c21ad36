import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Countdown,
  formatCountdown,
  secondsLeft,
  useSecondsLeft,
} from '../../../../src-renderer/src/shared/components/Countdown';

const START = Date.parse('2026-03-10T12:00:00.000Z');

describe('Countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('formats and counts whole seconds up', () => {
    expect(formatCountdown(0)).toBe('0 s');
    expect(formatCountdown(59)).toBe('59 s');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(3723)).toBe('1:02:03');
    expect(secondsLeft(START + 1500, START)).toBe(2);
    expect(secondsLeft(new Date(START - 1).toISOString(), START)).toBe(0);
    expect(secondsLeft('not a date', START)).toBe(0);
  });

  it('ticks down once a second, then says it is done and stops its timer', () => {
    render(<Countdown until={new Date(START + 3000).toISOString()} prefix="Next in" done="Ready" />);
    expect(screen.getByRole('timer').textContent).toBe('Next in 3 s');
    expect(vi.getTimerCount()).toBe(1);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('Next in 2 s');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('Ready')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not render its readers again when the first countdown starts the ticker', () => {
    let idleRenders = 0;
    function Idle() {
      idleRenders += 1;
      return <span>{useSecondsLeft(null)}</span>;
    }
    // Rendering takes time: the clock moves between the render and the countdown's subscription.
    function SlowCountdown() {
      vi.setSystemTime(Date.now() + 20);
      return <Countdown until={START + 5000} prefix="Next in" />;
    }
    render(
      <>
        <Idle />
        <SlowCountdown />
        <Idle />
      </>,
    );
    expect(idleRenders).toBe(2);
    expect(screen.getByRole('timer').textContent).toBe('Next in 5 s');
  });
});
