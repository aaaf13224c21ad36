import { describe, expect, it } from 'vitest';
import type { PortsRotation } from '../../../src-shared/contract';
import { NotificationController } from '../../../src-main/core/notifications/notification-controller';
import type { NotificationKind, OsNotice } from '../../../src-main/core/notifications/notification-kinds';
import {
  relocationNotices,
  rotationNotices,
  rotationOutcomeOf,
} from '../../../src-main/core/notifications/rotation-notices';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';

function setup(options: { focused?: boolean; disabled?: NotificationKind[] } = {}) {
  const clock = new FakeClock();
  const shown: OsNotice[] = [];
  let focused = options.focused ?? false;
  const controller = new NotificationController({
    clock,
    notifier: { show: (notice) => shown.push(notice) },
    isEnabled: (kind) => !(options.disabled ?? []).includes(kind),
    isWindowFocused: () => focused,
  });
  return { clock, shown, controller, setFocused: (value: boolean) => (focused = value) };
}

const rotated = (
  overrides: Partial<PortsRotation> = {},
  receipt: { id?: string; ip?: string; sameIp?: boolean } = {},
) =>
  rotationOutcomeOf(
    {
      profileId: 'p1',
      portId: 'mp_1',
      phase: 'finished',
      trigger: 'tray',
      receipt: {
        id: receipt.id ?? 'r1',
        portId: 'mp_1',
        previousIp: '10.0.0.1',
        ip: receipt.ip ?? '10.0.0.2',
        sameIp: receipt.sameIp ?? false,
        startedAt: '2026-01-01T00:00:00.000Z',
        finishedAt: '2026-01-01T00:00:08.000Z',
        tookMs: 8000,
        nextRotationAvailableAt: '2026-01-01T00:00:30.000Z',
        trigger: overrides.trigger ?? 'tray',
        attempts: 1,
        confirmedBy: 'answer',
        untilNew: null,
        verification: null,
      },
      ...overrides,
    },
    'Berlin monitor',
  );

describe('rotation notices', () => {
  it('says new IP, same IP or failed for rotations from the tray, the shortcut and schedules', () => {
    const { controller, shown } = setup();
    for (const trigger of ['tray', 'shortcut', 'schedule'] as const) {
      expect(controller.notify(rotationNotices, rotated({ trigger }, { id: `r-${trigger}` })!)).toBe('shown');
    }
    expect(shown.map((n) => [n.kind, n.title])).toEqual([
      ['rotation-new-ip', 'New IP: Berlin monitor'],
      ['rotation-new-ip', 'New IP: Berlin monitor'],
      ['rotation-new-ip', 'New IP: Berlin monitor (scheduled)'],
    ]);
    expect(shown[0]?.body).toBe('10.0.0.1 → 10.0.0.2');
    controller.notify(rotationNotices, rotated({}, { id: 'r-same', ip: '10.0.0.1', sameIp: true })!);
    expect(shown.at(-1)).toMatchObject({
      kind: 'rotation-same-ip',
      body: expect.stringMatching(/10\.0\.0\.1 again/),
    });
    const failed = rotationOutcomeOf(
      {
        profileId: 'p1',
        portId: 'mp_1',
        phase: 'failed',
        trigger: 'schedule',
        error: { code: 'x', message: 'Too soon' },
      },
      null,
    );
    controller.notify(rotationNotices, failed!);
    expect(shown.at(-1)).toMatchObject({
      kind: 'rotation-failed',
      title: 'Rotation failed: mp_1 (scheduled)',
      body: 'Too soon',
    });
  });

  it('stays quiet for rotations started in the window, and while it is under way', () => {
    const { controller, shown } = setup();
    expect(controller.notify(rotationNotices, rotated({ trigger: 'button' })!)).toBe('declined');
    expect(
      rotationOutcomeOf({ profileId: 'p1', portId: 'mp_1', phase: 'started', trigger: 'tray' }, null),
    ).toBeNull();
    expect(shown).toEqual([]);
  });
});

describe('NotificationController', () => {
  it('suppresses notices while a window is focused, and shows them again once it is not', () => {
    const { controller, shown, setFocused } = setup({ focused: true });
    expect(controller.notify(rotationNotices, rotated({}, { id: 'a' })!)).toBe('focused');
    expect(shown).toEqual([]);
    setFocused(false);
    expect(controller.notify(rotationNotices, rotated({}, { id: 'b' })!)).toBe('shown');
    expect(shown).toHaveLength(1);
  });

  it('leaves out each kind the user turned off, and only that kind', () => {
    const { controller, shown } = setup({ disabled: ['rotation-same-ip'] });
    expect(controller.notify(rotationNotices, rotated({}, { id: 'a', ip: '10.0.0.1', sameIp: true })!)).toBe(
      'disabled',
    );
    expect(controller.notify(rotationNotices, rotated({}, { id: 'b' })!)).toBe('shown');
    expect(shown.map((n) => n.kind)).toEqual(['rotation-new-ip']);
  });

  it('shows one receipt once, even when two callers shared it (single-flight)', async () => {
    const { controller, shown, clock } = setup();
    expect(controller.notify(rotationNotices, rotated({ trigger: 'tray' }, { id: 'same' })!)).toBe('shown');
    expect(controller.notify(rotationNotices, rotated({ trigger: 'schedule' }, { id: 'same' })!)).toBe(
      'duplicate',
    );
    await clock.advance(60_000);
    expect(controller.notify(rotationNotices, rotated({}, { id: 'same' })!)).toBe('shown');
    expect(shown).toHaveLength(2);
  });

  it('throttles a burst (a group rotating at once) to 5 notices per 10 s', async () => {
    const { controller, shown, clock } = setup();
    const outcomes = Array.from({ length: 8 }, (_, i) =>
      controller.notify(rotationNotices, rotated({}, { id: `r${i}` })!),
    );
    expect(outcomes.filter((o) => o === 'shown')).toHaveLength(5);
    expect(outcomes.slice(5)).toEqual(['throttled', 'throttled', 'throttled']);
    await clock.advance(10_000);
    expect(controller.notify(rotationNotices, rotated({}, { id: 'later' })!)).toBe('shown');
    expect(shown).toHaveLength(6);
  });

  it('tells when a relocation is done', () => {
    const { controller, shown } = setup();
    controller.notify(relocationNotices, {
      profileId: 'p1',
      portId: 'mp_1',
      label: 'Berlin monitor',
      state: 'active',
      message: 'New endpoint de.example:10001',
    });
    expect(shown).toEqual([
      expect.objectContaining({ kind: 'relocation-done', title: 'Relocation done: Berlin monitor' }),
    ]);
  });
});
