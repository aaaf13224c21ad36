import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../../../src-shared/contract';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { UpdateBanner } from '../../../../src-renderer/src/features/updates/UpdateBanner';
import { UpdatesSection } from '../../../../src-renderer/src/features/updates/UpdatesSection';
import { useUpdatesStore } from '../../../../src-renderer/src/features/updates/updates-store';
import { formatDateTime } from '../../../../src-renderer/src/shared/format/format';
import { fail, ok } from '../../support/fake-api';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const IDLE: UpdateStatus = {
  currentVersion: '0.1.0',
  installKind: 'appimage',
  preferences: { checkAutomatically: true, checkInDemo: false, proxyUrl: null },
  phase: 'idle',
  lastCheckedAt: '2026-06-01T00:00:00.000Z',
  available: null,
  heldBack: null,
  progress: null,
  ready: null,
  problem: null,
};
const AVAILABLE: UpdateStatus = {
  ...IDLE,
  available: {
    version: '0.2.0',
    notes: 'Signed updates.\nFaster lists.',
    releasedAt: '2026-05-30T12:00:00Z',
    size: 300,
  },
};

beforeEach(() => {
  useUpdatesStore.setState(useUpdatesStore.getInitialState(), true);
});

describe('UpdateBanner', () => {
  const fake = useFakeApi(() => ({
    'updates:status': () => ok(AVAILABLE),
    'updates:download': () =>
      ok({ ...AVAILABLE, phase: 'ready', ready: { kind: 'restart', version: '0.2.0' } }),
    'updates:restart': () =>
      ok({ ...AVAILABLE, phase: 'ready', ready: { kind: 'restart', version: '0.2.0' } }),
  }));

  it('says "Update available" with the notes, downloads, then offers a restart', async () => {
    render(<UpdateBanner />);
    await settle();
    expect(screen.getByText('Update available: 0.2.0')).toBeTruthy();
    expect(screen.getByText(/Faster lists\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download and verify' }));
    await settle();
    expect(fake.current.callsTo('updates:download')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Restart' }));
    await settle();
    expect(fake.current.callsTo('updates:restart')).toHaveLength(1);
  });

  it('follows updates:changed from main: the download’s percentage, then an installer with its command', async () => {
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    render(<UpdateBanner />);
    await settle();
    act(() =>
      fake.current.emit('updates:changed', {
        ...AVAILABLE,
        phase: 'downloading',
        progress: { receivedBytes: 126, totalBytes: 300, percent: 42 },
      }),
    );
    expect(screen.getByText(/Downloading Proxy Manager 0\.2\.0… 42%/)).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('42');
    act(() =>
      fake.current.emit('updates:changed', {
        ...AVAILABLE,
        installKind: 'deb',
        phase: 'ready',
        ready: {
          kind: 'installer',
          version: '0.2.0',
          path: '/d/pm.deb',
          command: "sudo apt install '/d/pm.deb'",
        },
      }),
    );
    expect(screen.getByText("sudo apt install '/d/pm.deb'")).toBeTruthy();
    disconnect();
  });

  it('says why a feed was refused, and shows a refused download’s error', async () => {
    fake.current.handle('updates:status', () =>
      ok({
        ...AVAILABLE,
        problem: { reason: 'hash_mismatch', message: 'The downloaded file’s sha256 is not the signed one.' },
      }),
    );
    fake.current.handle('updates:download', () =>
      fail('update_refused', 'The download ended after 1 of 300 bytes.'),
    );
    render(<UpdateBanner />);
    await settle();
    expect(screen.getByTestId('update-refused').textContent).toContain('sha256 is not the signed one');
    fireEvent.click(screen.getByRole('button', { name: 'Download and verify' }));
    await settle();
    expect(screen.getByText(/ended after 1 of 300 bytes/)).toBeTruthy();
  });

  it('shows nothing when up to date, or when offline (not a refusal)', async () => {
    fake.current.handle('updates:status', () =>
      ok({ ...IDLE, problem: { reason: 'failed', message: 'ECONNREFUSED' } }),
    );
    render(<UpdateBanner />);
    await settle();
    expect(screen.queryByTestId('update-banner')).toBeNull();
  });
});

describe('Settings → Updates', () => {
  const fake = useFakeApi(() => ({
    'updates:status': () => ok(IDLE),
    'updates:check': () => ok(AVAILABLE),
    'updates:setPreferences': (input) =>
      input?.proxyUrl === 'http://user:pw@proxy:3128'
        ? fail('invalid_input', 'proxyUrl: No user name', {
            fields: [{ field: 'proxyUrl', message: 'No user name or password' }],
          })
        : ok({ ...IDLE, preferences: { ...IDLE.preferences, ...input } }),
  }));

  it('turns the automatic check off, checks now, and shows a refused proxy address on its field', async () => {
    await useUpdatesStore.getState().load();
    render(<UpdatesSection />);
    expect(screen.getByText(/Up to date\./)).toBeTruthy();
    // The last check in the window's one date-time format (locale, UTC on hover), as every other time.
    const checked = screen.getByText(formatDateTime(IDLE.lastCheckedAt));
    expect(checked.tagName).toBe('TIME');
    expect(checked.getAttribute('title')).toBe('2026-06-01 00:00:00 UTC');
    fireEvent.click(screen.getByLabelText('Check for updates automatically'));
    await settle();
    expect(fake.current.callsTo('updates:setPreferences')).toEqual([{ checkAutomatically: false }]);
    expect(screen.getByLabelText<HTMLInputElement>('Check for updates automatically').checked).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Check for updates' }));
    await settle();
    expect(screen.getByText(/Update available: 0\.2\.0\./)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Proxy for updates'), {
      target: { value: 'http://user:pw@proxy:3128' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save proxy' }));
    await settle();
    expect(screen.getByText('No user name or password')).toBeTruthy();
  });
});
