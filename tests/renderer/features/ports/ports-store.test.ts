import type { RotationReceipt } from '../../../../src-shared/contract';
import { describe, expect, it } from 'vitest';
import * as contract from '../../../../src-shared/contract/ports';
import { LABEL_MAX as CONTRACT_LABEL_MAX } from '../../../../src-shared/limits';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import * as limits from '../../../../src-renderer/src/features/ports/port-limits';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { fail, ok } from '../../support/fake-api';
import { portsAnswer, appState, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { receipt } from './port-fixtures';

describe('ports store', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () => ok(portsAnswer([port(), port({ id: 'port_2' })])),
    'ports:rotate': () => ok(receipt()),
    'ports:relocations': () => ok([]),
  }));

  it('repeats the contract limits the forms check before asking', () => {
    expect(limits.LABEL_MAX).toBe(CONTRACT_LABEL_MAX);
    expect(limits.UNTIL_NEW_LIMITS).toEqual(contract.UNTIL_NEW_LIMITS);
    expect(limits.ROTATION_INTERVAL_MINUTES).toEqual(contract.ROTATION_INTERVAL_MINUTES);
    expect(limits.USAGE_RANGE_MAX_DAYS).toBe(contract.USAGE_RANGE_MAX_DAYS);
  });

  it('rotates: rotating while it runs, then the receipt, and the listed IP follows it', async () => {
    await usePortsStore.getState().load();
    let answer: (value: ReturnType<typeof ok<RotationReceipt>>) => void = () => undefined;
    fake.current.handle('ports:rotate', () => new Promise((done) => (answer = done)));
    const running = usePortsStore.getState().rotate('port_1', { untilNew: { lastN: 5, maxTries: 3 } });
    expect(usePortsStore.getState().rotations.port_1?.phase).toBe('rotating');
    // A second click while it runs sends nothing.
    await usePortsStore.getState().rotate('port_1');
    expect(fake.current.callsTo('ports:rotate')).toEqual([
      { portId: 'port_1', untilNew: { lastN: 5, maxTries: 3 } },
    ]);
    answer(ok(receipt()));
    await running;
    expect(usePortsStore.getState().rotations.port_1).toMatchObject({
      phase: 'done',
      receipt: { ip: '100.85.7.7' },
    });
    const listed = usePortsStore.getState().ports.data?.find((item) => item.id === 'port_1');
    expect(listed).toMatchObject({ currentIp: '100.85.7.7', ipChangedAt: '2026-03-10T12:00:09.000Z' });
  });

  it('keeps a 429 as the time it ends, and other failures without one', async () => {
    fake.current.handle('ports:rotate', () => fail('rate_limited', 'Too many', { retryAfterMs: 20_000 }));
    const before = Date.now();
    await usePortsStore.getState().rotate('port_1');
    const state = usePortsStore.getState().rotations.port_1!;
    expect(state.phase).toBe('failed');
    expect(state.retryAt).toBeGreaterThanOrEqual(before + 20_000);
    fake.current.handle('ports:rotate', () => fail('server_error', 'Bad gateway'));
    await usePortsStore.getState().rotate('port_1');
    expect(usePortsStore.getState().rotations.port_1).toMatchObject({
      retryAt: null,
      error: { code: 'server_error' },
    });
  });

  it('follows rotations started elsewhere through the event bridge, for the active profile only', async () => {
    fake.current.handle('app:getState', () => ok(appState()));
    fake.current.handle('ports:list', () => ok(portsAnswer([port()])));
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    await settle();
    await usePortsStore.getState().load();
    const profileId = useAppStore.getState().state!.activeProfile!.id;
    fake.current.emit('ports:rotation', { profileId, portId: 'port_1', phase: 'started', trigger: 'tray' });
    expect(usePortsStore.getState().rotations.port_1?.phase).toBe('rotating');
    fake.current.emit('ports:rotation', {
      profileId: 'someone_else',
      portId: 'port_1',
      phase: 'finished',
      trigger: 'tray',
      receipt: receipt({ ip: '1.1.1.1' }),
    });
    expect(usePortsStore.getState().rotations.port_1?.phase).toBe('rotating');
    fake.current.emit('ports:rotation', {
      profileId,
      portId: 'port_1',
      phase: 'finished',
      trigger: 'tray',
      receipt: receipt({ trigger: 'tray' }),
    });
    expect(usePortsStore.getState().rotations.port_1?.receipt?.trigger).toBe('tray');
    expect(usePortsStore.getState().ports.data?.[0]?.currentIp).toBe('100.85.7.7');
    fake.current.emit('ports:changed', {
      profileId,
      changed: [port({ status: 'active' })],
      relocations: [
        {
          portId: 'port_1',
          state: 'active',
          startedAt: '2026-03-10T12:00:00.000Z',
          nextCheckAt: null,
          checks: 3,
          message: null,
        },
      ],
    });
    expect(usePortsStore.getState().relocations.port_1?.state).toBe('active');
    disconnect();
  });

  it('hands the rotation link to the caller and keeps it nowhere in the store', async () => {
    fake.current.handle('ports:revealRotationLink', () =>
      ok({ rotationLink: 'https://x/rotate?key=SECRET' }),
    );
    const result = await usePortsStore.getState().revealRotationLink('port_1');
    expect(result).toEqual({ ok: true, value: { rotationLink: 'https://x/rotate?key=SECRET' } });
    expect(
      JSON.stringify(usePortsStore.getState(), (_key, value: unknown) =>
        value instanceof Set ? [...value] : value,
      ),
    ).not.toContain('SECRET');
  });

  it('drops the schedules and run logs on reset, and an answer still in flight for the old account', async () => {
    const scheduled = { profileId: 'prof_work', paused: false, schedules: [] };
    fake.current.handle('schedules:list', () => ok(scheduled));
    fake.current.handle('schedules:runs', () => ok([]));
    await usePortsStore.getState().loadSchedules();
    await usePortsStore.getState().loadScheduleRuns('port_1');
    let answer: (value: ReturnType<typeof ok<typeof scheduled>>) => void = () => undefined;
    fake.current.handle('schedules:list', () => new Promise((done) => (answer = done)));
    const late = usePortsStore.getState().loadSchedules(true);
    usePortsStore.getState().reset();
    answer(ok({ ...scheduled, paused: true }));
    await late;
    expect(usePortsStore.getState().schedules).toEqual({ status: 'idle', data: null, error: null });
    expect(usePortsStore.getState().scheduleRuns).toEqual({});
  });
});
