import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortSchedule, ScheduleRun, SchedulesView } from '../../../../src-shared/contract';
import * as contract from '../../../../src-shared/contract/schedules';
import * as timing from '../../../../src-shared/rotation-rules';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { PortDetail } from '../../../../src-renderer/src/features/ports/PortDetail';
import { SCHEDULE_LIMITS } from '../../../../src-renderer/src/features/ports/port-limits';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { PortsScreen } from '../../../../src-renderer/src/features/ports/PortsScreen';
import { formOf, validateSchedule } from '../../../../src-renderer/src/features/ports/SchedulePanel';
import { fail, ok } from '../../support/fake-api';
import { portsAnswer, appState, carriers, cities, countries, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { receipt } from './port-fixtures';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

const run = (overrides: Partial<ScheduleRun> = {}): ScheduleRun => ({
  at: iso(-60_000),
  trigger: 'schedule',
  result: 'new-ip',
  previousIp: '100.85.1.1',
  newIp: '100.85.1.2',
  error: null,
  ...overrides,
});

const schedule = (overrides: Partial<PortSchedule> = {}): PortSchedule => ({
  profileId: 'prof_work',
  portId: 'port_1',
  cadence: { kind: 'every', seconds: 120 },
  jitterSeconds: 0,
  staggerSeconds: 0,
  offsetSeconds: 0,
  nextRunAt: iso(120_000),
  consecutiveFailures: 0,
  lastRuns: [],
  ...overrides,
});

const view = (schedules: PortSchedule[], paused = false): SchedulesView => ({
  profileId: 'prof_work',
  paused,
  schedules,
});

beforeEach(() => {
  // Only the date: countdowns read it, and nothing here waits for a timer.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('schedule form checks', () => {
  it('repeats the contract limits', () => {
    expect(SCHEDULE_LIMITS).toEqual({
      minEverySeconds: timing.MIN_EVERY_SECONDS,
      maxEverySeconds: timing.MAX_EVERY_SECONDS,
      maxJitterSeconds: timing.MAX_JITTER_SECONDS,
      maxStaggerSeconds: contract.MAX_STAGGER_SECONDS,
    });
  });

  it('turns minutes into seconds and refuses less than 30 seconds, fractions and bad jitter', () => {
    const form = formOf(undefined);
    expect(form).toMatchObject({ kind: 'every', every: '30', unit: 'minutes' });
    expect(validateSchedule({ ...form, every: '2' }, false)).toEqual({
      input: { cadence: { kind: 'every', seconds: 120 }, jitterSeconds: 0, staggerSeconds: 0 },
    });
    expect(validateSchedule({ ...form, every: '29', unit: 'seconds' }, false)).toEqual({
      errors: { every: "At least every 30 seconds (the service's limit)" },
    });
    expect(validateSchedule({ ...form, every: '1.5' }, false)).toEqual({
      errors: { every: 'Whole minutes' },
    });
    expect(validateSchedule({ ...form, every: '10081' }, false)).toEqual({
      errors: { every: 'At most every 7 days' },
    });
    expect(validateSchedule({ ...form, jitter: '3601', stagger: '-1' }, true)).toEqual({
      errors: { jitter: '0-3600 whole seconds', stagger: '0-3600 whole seconds' },
    });
    // The stagger belongs to a group: one port ignores it.
    expect(validateSchedule({ ...form, stagger: 'x' }, false)).toMatchObject({
      input: { staggerSeconds: 0 },
    });
  });

  it('sends a cron expression as typed (main checks it with the scheduler parser), time zone only when given', () => {
    const form = { ...formOf(undefined), kind: 'cron' as const, expression: ' */5 * * * * ' };
    expect(validateSchedule(form, false)).toMatchObject({
      input: { cadence: { kind: 'cron', expression: '*/5 * * * *' } },
    });
    expect(validateSchedule({ ...form, timezone: 'Europe/Berlin' }, false)).toMatchObject({
      input: { cadence: { timezone: 'Europe/Berlin' } },
    });
    expect(validateSchedule({ ...form, expression: ' ' }, false)).toEqual({
      errors: { expression: 'Enter a cron expression' },
    });
  });

  it('opens with the port schedule when it has one', () => {
    expect(formOf(schedule({ cadence: { kind: 'every', seconds: 45 }, jitterSeconds: 7 }))).toMatchObject({
      every: '45',
      unit: 'seconds',
      jitter: '7',
    });
  });
});

describe('port detail: app schedule and run log', () => {
  let current = view([]);
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'ports:list': () => ok(portsAnswer([port()])),
    'ports:receipts': () => ok([]),
    'ports:relocations': () => ok([]),
    'ports:ipHistory': ({ page }) =>
      ok({ data: [], pagination: { page, perPage: 20, total: 0, totalPages: 0 } }),
    'ports:usage': () =>
      ok({
        from: '2026-03-01',
        to: '2026-03-30',
        totalBytes: 0,
        totalRequests: 0,
        points: [],
        byCountry: [],
      }),
    'catalog:countries': () => ok(countries()),
    'catalog:cities': () => ok(cities()),
    'catalog:carriers': () => ok(carriers()),
    'schedules:list': () => ok(current),
    'schedules:runs': () => ok([]),
    'schedules:set': ({ portIds, cadence, jitterSeconds, staggerSeconds }) => {
      current = view(
        portIds.map((portId) =>
          schedule({ portId, cadence, jitterSeconds, staggerSeconds: staggerSeconds ?? 0 }),
        ),
      );
      return ok(current);
    },
    'schedules:remove': () => ok((current = view([]))),
    'schedules:pause': ({ paused }) => ok((current = { ...current, paused })),
  }));
  beforeEach(() => {
    current = view([]);
  });
  const panel = () => screen.getByRole('region', { name: 'App schedule' });

  it('adds a schedule every 45 seconds with jitter, then shows its next run', async () => {
    render(<PortDetail port={port()} />);
    await settle();
    expect(within(panel()).getByText('No app schedule for this port.')).toBeTruthy();
    fireEvent.change(within(panel()).getByRole('textbox', { name: 'Every' }), { target: { value: '45' } });
    fireEvent.click(within(panel()).getByRole('radio', { name: 'seconds' }));
    fireEvent.change(within(panel()).getByRole('textbox', { name: 'Jitter (seconds)' }), {
      target: { value: '5' },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Add schedule' }));
    await settle();
    expect(fake.current.callsTo('schedules:set')).toEqual([
      { portIds: ['port_1'], cadence: { kind: 'every', seconds: 45 }, jitterSeconds: 5, staggerSeconds: 0 },
    ]);
    expect(within(panel()).getByRole('status').textContent).toContain('Schedule saved.');
    expect(within(panel()).getByRole('timer').textContent).toBe('in 2:00');
  });

  it('says what is wrong on the field before sending, and shows main refusing a cron expression on its field', async () => {
    render(<PortDetail port={port()} />);
    await settle();
    fireEvent.change(within(panel()).getByRole('textbox', { name: 'Every' }), { target: { value: '10' } });
    fireEvent.click(within(panel()).getByRole('radio', { name: 'seconds' }));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Add schedule' }));
    await settle();
    expect(fake.current.callsTo('schedules:set')).toEqual([]);
    const every = within(panel()).getByRole('textbox', { name: 'Every' });
    expect(every.getAttribute('aria-invalid')).toBe('true');
    expect(within(panel()).getByText("At least every 30 seconds (the service's limit)")).toBeTruthy();

    fake.current.handle('schedules:set', () =>
      fail('invalid_input', 'cadence.expression: Not a valid cron expression', {
        fields: [{ field: 'cadence.expression', message: 'Not a valid cron expression: bad minute' }],
      }),
    );
    fireEvent.click(within(panel()).getByRole('radio', { name: 'On a cron expression' }));
    fireEvent.change(within(panel()).getByRole('textbox', { name: 'Cron expression' }), {
      target: { value: '99 * * * *' },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Add schedule' }));
    await settle();
    expect(fake.current.callsTo('schedules:set')).toEqual([
      {
        portIds: ['port_1'],
        cadence: { kind: 'cron', expression: '99 * * * *' },
        jitterSeconds: 0,
        staggerSeconds: 0,
      },
    ]);
    const expression = within(panel()).getByRole('textbox', { name: 'Cron expression' });
    expect(expression.getAttribute('aria-invalid')).toBe('true');
    expect(within(panel()).getByText('Not a valid cron expression: bad minute')).toBeTruthy();
  });

  it('says when the schedules cannot be read, and offers no pause it cannot know the state of', async () => {
    fake.current.handle('schedules:list', () => fail('network_error', 'The service did not answer.'));
    render(<PortDetail port={port()} />);
    await settle();
    expect(within(panel()).getByText('The service did not answer.')).toBeTruthy();
    expect(
      within(panel()).getByRole<HTMLInputElement>('checkbox', { name: 'Pause schedules' }).disabled,
    ).toBe(true);
    expect(within(panel()).queryByRole('form', { name: 'Rotation schedule' })).toBeNull();
  });

  it('removes the schedule, and pauses every schedule with the global toggle', async () => {
    current = view([schedule()]);
    render(<PortDetail port={port()} />);
    await settle();
    expect(within(panel()).getByRole('timer').textContent).toBe('in 2:00');
    fireEvent.click(within(panel()).getByRole('checkbox', { name: 'Pause schedules' }));
    await settle();
    expect(fake.current.callsTo('schedules:pause')).toEqual([{ paused: true }]);
    expect(within(panel()).getByText('Paused')).toBeTruthy();
    fireEvent.click(within(panel()).getByRole('button', { name: 'Remove schedule' }));
    await settle();
    expect(fake.current.callsTo('schedules:remove')).toEqual([{ portIds: ['port_1'] }]);
    expect(within(panel()).getByText('No app schedule for this port.')).toBeTruthy();
  });

  it('shows the run log, and reads it again on schedules:changed with a new run and on a finished rotation', async () => {
    current = view([schedule({ lastRuns: [run()] })]);
    fake.current.handle('schedules:runs', () =>
      ok([
        run({
          at: iso(-30_000),
          trigger: 'retry',
          result: 'failed',
          newIp: null,
          error: 'The service did not answer.',
        }),
        run({ trigger: 'catch-up', result: 'same-ip', newIp: '100.85.1.1' }),
        run({ trigger: 'moon-phase' as ScheduleRun['trigger'], result: 'skipped-offline' }),
      ]),
    );
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    render(<PortDetail port={port()} />);
    await settle();
    const log = within(panel()).getByRole('table', { name: 'Schedule runs' });
    const rows = within(log).getAllByRole('row').slice(1);
    expect(
      rows.map((row) => [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent)),
    ).toEqual([
      ['Retry after a failure', 'Failed', '100.85.1.1', '—', 'The service did not answer.'],
      ['Catch-up (missed runs)', 'Same IP', '100.85.1.1', '100.85.1.1', ''],
      ['moon-phase', 'Skipped (offline)', '100.85.1.1', '100.85.1.2', ''],
    ]);
    expect(fake.current.callsTo('schedules:runs')).toHaveLength(1);

    // Same newest run: nothing to read again.
    fake.current.emit('schedules:changed', view([schedule({ lastRuns: [run()] })]));
    await settle();
    expect(fake.current.callsTo('schedules:runs')).toHaveLength(1);
    // Another profile's schedules never reach this screen.
    fake.current.emit('schedules:changed', {
      ...view([schedule({ lastRuns: [run({ at: iso(0) })] })]),
      profileId: 'x',
    });
    await settle();
    expect(fake.current.callsTo('schedules:runs')).toHaveLength(1);
    fake.current.emit(
      'schedules:changed',
      view([schedule({ lastRuns: [run({ at: iso(0) })], nextRunAt: iso(60_000) })]),
    );
    await settle();
    expect(fake.current.callsTo('schedules:runs')).toHaveLength(2);
    expect(within(panel()).getByRole('timer').textContent).toBe('in 1:00');

    fake.current.emit('ports:rotation', {
      profileId: 'prof_work',
      portId: 'port_1',
      phase: 'finished',
      trigger: 'schedule',
      receipt: receipt({ trigger: 'schedule' }),
    });
    await settle();
    expect(fake.current.callsTo('schedules:runs')).toHaveLength(3);
    disconnect();
  });

  it('applies schedules:changed of the expected shape and ignores others', async () => {
    current = view([schedule()]);
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    await usePortsStore.getState().loadSchedules();
    await settle();
    fake.current.emit('schedules:changed', { profileId: 'prof_work', paused: 'yes', schedules: [] });
    fake.current.emit('schedules:changed', { profileId: 'prof_work', paused: true, schedules: [{}] });
    expect(usePortsStore.getState().schedules.data).toEqual(view([schedule()]));
    fake.current.emit('schedules:changed', view([], true));
    expect(usePortsStore.getState().schedules.data).toEqual(view([], true));
    disconnect();
  });
});

describe('ports list: next run and a group schedule', () => {
  let current = view([]);
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok(
        portsAnswer([
          port(),
          port({ id: 'port_2', label: 'Berlin' }),
          port({ id: 'port_3', label: 'Paris' }),
        ]),
      ),
    'catalog:countries': () => ok(countries()),
    'catalog:cities': () => ok([]),
    'schedules:list': () => ok(current),
    'schedules:set': ({ portIds, cadence, jitterSeconds, staggerSeconds }) =>
      ok(
        (current = view(
          portIds.map((portId, index) =>
            schedule({
              portId,
              cadence,
              jitterSeconds,
              staggerSeconds: staggerSeconds ?? 0,
              nextRunAt: iso(120_000 + index * 1000 * (staggerSeconds ?? 0)),
            }),
          ),
        )),
      ),
  }));
  beforeEach(() => {
    current = view([schedule({ portId: 'port_2', nextRunAt: iso(2 * 3_600_000) }), schedule()]);
  });
  const rowOf = (name: string) =>
    within(screen.getByRole('table', { name: 'Mobile ports' }))
      .getAllByRole('row')
      .find((row) => row.textContent?.includes(name))!;

  it('shows each scheduled port next run: a countdown within the hour, a time further away', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    await settle();
    expect(within(rowOf('Sneaker drops LA')).getByRole('timer').textContent).toBe('in 2:00');
    expect(within(rowOf('Berlin')).queryByRole('timer')).toBeNull();
    expect(within(rowOf('Berlin')).getByText(/in 2 h/)).toBeTruthy();
    expect(rowOf('Paris').textContent).toContain('—');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Next run' }));
    const order = within(screen.getByRole('table', { name: 'Mobile ports' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('th a')?.textContent);
    expect(order).toEqual(['Sneaker drops LA', 'Berlin', 'Paris']);
  });

  it('schedules a selection as a staggered group in one call', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Berlin' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Paris' }));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule… 2 selected ports' }));
    const group = screen.getByRole('region', { name: 'Schedule 2 ports' });
    fireEvent.change(within(group).getByRole('textbox', { name: 'Every' }), { target: { value: '5' } });
    fireEvent.change(within(group).getByRole('textbox', { name: 'Stagger (seconds)' }), {
      target: { value: '60' },
    });
    fireEvent.click(within(group).getByRole('button', { name: 'Schedule 2 ports' }));
    await settle();
    expect(fake.current.callsTo('schedules:set')).toEqual([
      {
        portIds: ['port_2', 'port_3'],
        cadence: { kind: 'every', seconds: 300 },
        jitterSeconds: 0,
        staggerSeconds: 60,
      },
    ]);
    expect(screen.queryByRole('region', { name: 'Schedule 2 ports' })).toBeNull();
    expect(within(rowOf('Paris')).getByRole('timer').textContent).toBe('in 3:00');
  });
});
