import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RendererApi } from '../../../../src-shared/contract';
import { callApi } from '../../../../src-renderer/src/api/window-api';
import { SlowCallNotice } from '../../../../src-renderer/src/features/app/SlowCallNotice';
import { useSlowCallsStore } from '../../../../src-renderer/src/features/app/slow-calls-store';
import { ok } from '../../support/fake-api';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('still waiting… with Cancel', () => {
  const fake = useFakeApi(() => ({ 'app:cancelCall': () => ok({ cancelled: true }) }));

  it('every call carries an id beside its input, and the notice goes when the call settles', async () => {
    const seen: unknown[][] = [];
    let settle: (value: unknown) => void = () => undefined;
    window.api = {
      ...fake.current.api,
      catalog: {
        ...fake.current.api.catalog,
        coins: (...args: unknown[]) => {
          seen.push(args);
          return new Promise((resolve) => (settle = resolve));
        },
      },
    } as unknown as RendererApi;
    const pending = callApi((api) => api.catalog.coins());
    const callId = (seen[0]?.[1] as { callId: string }).callId;
    expect(seen[0]?.[0]).toBeUndefined();
    expect(callId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    render(<SlowCallNotice />);
    act(() =>
      useSlowCallsStore
        .getState()
        .markSlow({ callId, channel: 'catalog:coins', elapsedMs: 3_000, budgetMs: 20_000 }),
    );
    expect(screen.getByText(/has not answered \(catalog: coins\) after 3 s/)).toBeTruthy();
    await act(async () => {
      settle(ok([]));
      await pending;
    });
    expect(screen.queryByText(/Still waiting/)).toBeNull();
  });

  it('Cancel asks main to abort that call', async () => {
    render(<SlowCallNotice />);
    act(() =>
      useSlowCallsStore
        .getState()
        .markSlow({ callId: 'c9-abc', channel: 'ports:ipHistory', elapsedMs: 3_400, budgetMs: 20_000 }),
    );
    expect(screen.getByText(/ports: ip history/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      await Promise.resolve();
    });
    expect(fake.current.callsTo('app:cancelCall')).toEqual([{ callId: 'c9-abc' }]);
    act(() => useSlowCallsStore.getState().ended('c9-abc'));
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});
