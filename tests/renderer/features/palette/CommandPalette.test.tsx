import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandPalette } from '../../../../src-renderer/src/features/palette/CommandPalette';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import {
  subUserLists,
  useSubscriptionsStore,
} from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { useTopUpWizardStore } from '../../../../src-renderer/src/features/topups/topup-wizard-store';
import { useTopUpsStore } from '../../../../src-renderer/src/features/topups/topups-store';
import { fail, ok } from '../../support/fake-api';
import {
  port,
  portsAnswer,
  subscription,
  subUser,
  subUsersTable,
  topUp,
  topUpPage,
} from '../../support/fixtures';
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

  /** Opens the palette, types `query` and lists the options it shows. */
  const typeIn = (query: string) => {
    if (!screen.queryByRole('dialog', { name: 'Command palette' }))
      fireEvent.keyDown(document, { key: 'k', ctrlKey: true });
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: query } });
    return within(palette)
      .queryAllByRole('option')
      .map((option) => option.textContent);
  };

  it('goes to a subscription, a sub-user and a top-up by its label or its id', async () => {
    fake.current.handle('subscriptions:list', () =>
      ok([subscription(), subscription({ id: 'sub_2', label: '' })]),
    );
    fake.current.handle('subscriptions:subUsers', () =>
      ok(subUsersTable([subUser(), subUser({ id: 'su_2', label: '', username: 'u-bare' })])),
    );
    fake.current.handle('topups:list', () =>
      ok(topUpPage([topUp(), topUp({ id: 'topup_2', status: 'awaiting_payment', amountUsd: '25.10' })])),
    );
    await useSubscriptionsStore.getState().load('all');
    await subUserLists.load(['sub_1']);
    await useTopUpsStore.getState().load();
    render(<CommandPalette />);

    // A subscription by its label, and one without a label by its id.
    expect(typeIn('price monitoring')).toContain('Price monitoringsub_1');
    fireEvent.click(screen.getByRole('option', { name: /^Price monitoring/ }));
    expect(window.location.hash).toBe('#/subscriptions/sub_1');
    expect(typeIn('sub_2')).toEqual(['sub_2sub_2']);
    fireEvent.click(screen.getByRole('option', { name: /^sub_2/ }));
    expect(window.location.hash).toBe('#/subscriptions/sub_2');

    // A sub-user by its label or by its id opens the subscription it belongs to.
    expect(typeIn('scraper')).toEqual(['Scrapersub-user su_1']);
    window.location.hash = '#/ports';
    fireEvent.click(screen.getByRole('option', { name: /^Scraper/ }));
    expect(window.location.hash).toBe('#/subscriptions/sub_1');
    expect(typeIn('su_2')).toEqual(['u-baresub-user su_2']);

    // A top-up by its id: the Top-ups screen with the top-up open in the wizard.
    expect(typeIn('topup_2')).toEqual(['Top-up 25.10 USD (awaiting_payment)topup_2']);
    fireEvent.click(screen.getByRole('option', { name: /^Top-up 25\.10 USD/ }));
    expect(window.location.hash).toBe('#/topups');
    expect(useTopUpWizardStore.getState()).toMatchObject({ open: true, topUp: { id: 'topup_2' } });
    await settle();

    // A top-up beyond the page the window holds: by its exact id, read from the service.
    fake.current.handle('topups:get', ({ topUpId }) =>
      topUpId === 'topup_77'
        ? ok(topUp({ id: 'topup_77', amountUsd: '77.00' }))
        : fail('not_found', 'No such top-up.'),
    );
    window.location.hash = '#/ports';
    expect(typeIn('topup_77')).toEqual(['Open top-up topup_77by its id, from the service']);
    fireEvent.click(screen.getByRole('option', { name: /^Open top-up topup_77/ }));
    await settle();
    expect(fake.current.callsTo('topups:get')).toContainEqual({ topUpId: 'topup_77' });
    expect(window.location.hash).toBe('#/topups');
    expect(useTopUpWizardStore.getState()).toMatchObject({ open: true, topUp: { id: 'topup_77' } });
    typeIn('topup_404');
    fireEvent.click(screen.getByRole('option', { name: /^Open top-up topup_404/ }));
    await settle();
    expect(screen.getByRole('status').textContent).toBe('Cannot open the top-up topup_404: No such top-up.');
    // Words that name nothing offer nothing.
    expect(typeIn('no such thing')).toEqual([]);
  });

  it('runs "Copy proxy string" (read from the service, copied whole) and "Top up" (the wizard)', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fake.current.handle('ports:get', ({ portId }) =>
      ok(port({ id: portId, label: 'Social QA', username: 'qa-user', password: 'qa-secret' })),
    );
    await usePortsStore.getState().load();
    render(<CommandPalette />);

    expect(typeIn('copy proxy string social')).toEqual(['Copy proxy string Social QAport_2']);
    fireEvent.click(screen.getByRole('option', { name: /^Copy proxy string Social QA/ }));
    await settle();
    expect(fake.current.callsTo('ports:get')).toEqual([{ portId: 'port_2' }]);
    expect(writeText).toHaveBeenCalledWith('gw.example.com:8000:qa-user:qa-secret');
    expect(screen.getByRole('status').textContent).toBe('Copied the proxy string of Social QA.');

    window.location.hash = '#/ports';
    typeIn('top up');
    fireEvent.click(screen.getByRole('option', { name: /^Top upadd funds/ }));
    expect(window.location.hash).toBe('#/topups');
    expect(useTopUpWizardStore.getState().open).toBe(true);
  });
});
