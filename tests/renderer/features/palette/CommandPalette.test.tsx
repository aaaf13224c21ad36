import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandPalette } from '../../../../src-renderer/src/features/palette/CommandPalette';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { ok } from '../../support/fake-api';
import { port, portsAnswer } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('command palette (Ctrl/Cmd+K)', () => {
  // cmdk sizes its list with a ResizeObserver, which jsdom lacks.
  beforeEach(() => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    return () => vi.unstubAllGlobals();
  });
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok(
        portsAnswer([port(), port({ id: 'port_2', label: 'Social QA' }), port({ id: 'port_3', label: '' })]),
      ),
    'ports:rotate': ({ portId }) =>
      ok({
        id: 'r1',
        portId,
        trigger: 'button',
        previousIp: '100.85.1.2',
        ip: '100.85.9.9',
        sameIp: false,
        startedAt: '2026-03-10T12:00:00.000Z',
        finishedAt: '2026-03-10T12:00:05.000Z',
        tookMs: 5000,
        nextRotationAvailableAt: '2026-03-10T12:00:35.000Z',
        confirmedBy: 'answer',
        attempts: 1,
        untilNew: null,
        verification: null,
      }),
    'schedules:pause': ({ paused }) => ok({ profileId: 'prof_work', paused, schedules: [] }),
  }));

  it('opens on Ctrl+K, finds a port by its label and rotates it', async () => {
    await usePortsStore.getState().load();
    render(<CommandPalette />);
    expect(screen.queryByRole('combobox')).toBeNull();
    fireEvent.keyDown(document, { key: 'k', ctrlKey: true });
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'social qa' } });
    const options = within(palette)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual([
      'Rotate Social QAport_2',
      'Copy proxy string Social QAport_2',
      'Social QAport_2',
    ]);
    fireEvent.click(within(palette).getByRole('option', { name: /^Rotate Social QA/ }));
    await settle();
    expect(fake.current.callsTo('ports:rotate')).toEqual([{ portId: 'port_2' }]);
    expect(window.location.hash).toBe('#/ports/port_2');
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('finds a port without a label by its id, and runs "Pause schedules"', async () => {
    await usePortsStore.getState().load();
    usePortsStore.getState().applySchedules({ profileId: 'prof_work', paused: false, schedules: [] });
    render(<CommandPalette />);
    fireEvent.click(screen.getByRole('button', { name: /Go to or run/ }));
    const box = within(screen.getByRole('dialog', { name: 'Command palette' })).getByRole('combobox');
    fireEvent.change(box, { target: { value: 'port_3' } });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toContain(
      'Rotate port_3port_3',
    );
    fireEvent.change(box, { target: { value: 'pause' } });
    fireEvent.click(screen.getByRole('option', { name: /^Pause schedules/ }));
    await settle();
    expect(fake.current.callsTo('schedules:pause')).toEqual([{ paused: true }]);
    expect(screen.getByRole('status').textContent).toBe('Schedules paused.');
  });
});
