import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpScreens } from '../../../src-renderer/src/app/warm-up';
import { ok } from '../support/fake-api';
import { subscription, topUp, topUpPage } from '../support/fixtures';
import { stubIdleCallbacks, useFakeApi } from '../support/renderer-test-kit';

describe('the list screens are rendered once off the page after the read-ahead', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:list': () => ok([subscription()]),
    'topups:list': () => ok(topUpPage([topUp()])),
  }));
  afterEach(() => vi.unstubAllGlobals());

  it('renders the screens not on screen, hidden, with none of their effects, and drops them when idle', async () => {
    const idle = stubIdleCallbacks();
    window.location.hash = '#/ports';
    document.title = 'Ports · Proxy Manager';
    const container = document.createElement('div');
    warmUpScreens(['ports', 'subscriptions', 'topups'], container, 1);
    // React renders a hidden Activity at idle priority: its headings arrive in the detached element.
    await waitFor(() => expect(container.textContent).toContain('Top-ups'));
    expect(container.textContent).toContain('Subscriptions');
    // The screen on the page is not rendered twice.
    expect(container.querySelectorAll('h1')).toHaveLength(2);
    expect(container.isConnected).toBe(false);
    // No effects: the window's title stays, nothing is loaded, no ticker runs.
    expect(document.title).toBe('Ports · Proxy Manager');
    expect(fake.current.callsTo('subscriptions:list')).toHaveLength(0);
    expect(fake.current.callsTo('topups:list')).toHaveLength(0);
    // Dropped once the browser has been idle twice.
    idle.runAll();
    expect(container.textContent).not.toBe('');
    idle.runAll();
    expect(container.textContent).toBe('');
    expect(idle.pending.size).toBe(0);
  });

  it('mounts the screens afresh once per round, each when the browser is idle, then drops them', async () => {
    const idle = stubIdleCallbacks();
    window.location.hash = '#/ports';
    const container = document.createElement('div');
    warmUpScreens(['ports', 'topups'], container, 3);
    const headings: Element[] = [];
    for (let round = 0; round < 3; round += 1) {
      await waitFor(() => expect(container.querySelector('h1')).not.toBeNull());
      // A new heading each round: mounted again, as a visit does, not re-rendered in place.
      const heading = container.querySelector('h1');
      expect(headings).not.toContain(heading);
      headings.push(heading as Element);
      idle.runAll();
    }
    expect(container.textContent).not.toBe('');
    idle.runAll();
    expect(container.textContent).toBe('');
    expect(idle.pending.size).toBe(0);
  });

  it('is dropped at once by the function it answers, and does nothing without idle callbacks', async () => {
    const idle = stubIdleCallbacks();
    window.location.hash = '#/overview';
    const container = document.createElement('div');
    const drop = warmUpScreens(['topups'], container);
    await waitFor(() => expect(container.textContent).toContain('Top-ups'));
    act(() => drop());
    expect(container.textContent).toBe('');
    expect(idle.pending.size).toBe(0);

    vi.unstubAllGlobals();
    vi.stubGlobal('requestIdleCallback', undefined);
    const untouched = document.createElement('div');
    warmUpScreens(['topups'], untouched)();
    expect(untouched.childNodes).toHaveLength(0);
  });
});
