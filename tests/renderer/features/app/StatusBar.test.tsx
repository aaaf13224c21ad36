import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { StatusBar } from '../../../../src-renderer/src/features/app/StatusBar';
import { appState } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('Status bar', () => {
  useFakeApi();
  const NOW = Date.parse('2026-03-10T12:36:00.000Z');
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());
  const show = (connection: ReturnType<typeof appState>['connection']) =>
    act(() => useAppStore.getState().applyState(appState({ connection })));

  it('says Online without "checked 36 min ago"; when something is wrong it says when it last checked', () => {
    const longAgo = new Date(NOW - 36 * 60_000).toISOString();
    show({ status: 'online', message: 'Connected to Work.', checkedAt: longAgo });
    const { container } = render(<StatusBar />);
    expect(screen.getByTestId('connection-status').textContent).toBe('Online');
    expect(container.textContent).not.toMatch(/checked/);

    show({ status: 'offline', message: 'Cannot reach the service: timeout', checkedAt: longAgo });
    expect(container.textContent).toMatch(/last checked .*\(36 min ago\)/);
  });
});
