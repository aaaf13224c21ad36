import { afterEach, describe, expect, it } from 'vitest';
import type {
  MobilePortView,
  PendingTopUpSummary,
  RotationReceipt,
  SchedulesView,
} from '../../../src-shared/contract';
import { EventBus } from '../../../src-main/core/events';
import type { PortsTrayState } from '../../../src-main/core/tray/tray-menu';
import { TrayStateService } from '../../../src-main/core/tray/tray-state';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { defaultSettings, type Settings } from '../../../src-main/core/settings/settings-schema';

const START = Date.UTC(2026, 0, 1, 12);
const portView = (id: string, label: string, ip: string) => ({ id, label, currentIp: ip }) as MobilePortView;

function receipt(
  portId: string,
  ip: string,
  cooldownMs: number,
  trigger: RotationReceipt['trigger'] = 'tray',
) {
  return {
    id: `r-${portId}-${ip}`,
    portId,
    previousIp: '10.0.0.9',
    ip,
    sameIp: false,
    startedAt: new Date(START).toISOString(),
    finishedAt: new Date(START).toISOString(),
    tookMs: 0,
    nextRotationAvailableAt: new Date(START + cooldownMs).toISOString(),
    trigger,
    attempts: 1,
    confirmedBy: 'answer' as const,
    untilNew: null,
    verification: null,
  };
}

let tray: TrayStateService | null = null;
afterEach(() => tray?.stop());

function setup(
  ports: MobilePortView[],
  pinned: string[] = [],
  extra: {
    latest?: Record<string, RotationReceipt>;
    pending?: () => Promise<PendingTopUpSummary[]>;
    ownsJobs?: () => boolean;
  } = {},
) {
  const clock = new FakeClock(START);
  const events = new EventBus();
  let settings: Settings = defaultSettings();
  if (pinned.length > 0) settings.tray.pinned.p1 = pinned;
  const calls: string[] = [];
  let paused = false;
  const service = new TrayStateService({
    settings: {
      get: () => settings,
      update: (mutate) => {
        const draft = structuredClone(settings);
        mutate(draft);
        settings = draft;
        return Promise.resolve(settings);
      },
    },
    events,
    clock,
    activeProfileId: () => 'p1',
    listPorts: () => Promise.resolve(ports),
    rotation: {
      rotate: (profileId, portId, trigger, options) => {
        calls.push(
          `rotate ${portId} ${trigger}${options?.untilUnique ? ` until unique ${options.untilUnique.maxTries}` : ''}`,
        );
        return Promise.resolve();
      },
      rotateMany: (profileId, portIds, trigger) => {
        calls.push(`rotateMany ${portIds.join(',')} ${trigger}`);
        return Promise.resolve();
      },
      ...(extra.latest ? { latestReceipts: () => Promise.resolve(extra.latest!) } : {}),
    },
    ...(extra.pending ? { pendingPayments: extra.pending } : {}),
    ...(extra.ownsJobs ? { ownsJobs: extra.ownsJobs } : {}),
    schedules: {
      get paused() {
        return paused;
      },
      pause: (value) => {
        paused = value;
        calls.push(`pause ${value}`);
        return Promise.resolve({ profileId: 'p1', paused, schedules: [] } as SchedulesView);
      },
      view: () => ({ profileId: 'p1', paused, schedules: [] }),
    },
  });
  tray = service;
  const renders: PortsTrayState[] = [];
  service.subscribe((state) => renders.push(state));
  return { clock, events, service, renders, calls };
}

describe('TrayStateService', () => {
  it('knows job ownership from the core and follows it on each app state change', async () => {
    let owner = false;
    const { service, events } = setup([portView('a', 'Alpha', '1.1.1.1')], [], { ownsJobs: () => owner });
    await service.start();
    expect(service.current.ownsSchedules).toBe(false);
    owner = true; // the owning process quit; this one took the jobs over and pushed its state
    events.emit('app:stateChanged', {} as never);
    expect(service.current.ownsSchedules).toBe(true);
  });

  it('lists every port when none are pinned and there are few, pinned ones otherwise', async () => {
    const few = setup([portView('b', 'Beta', '2.2.2.2'), portView('a', 'Alpha', '1.1.1.1')]);
    await few.service.start();
    expect(few.service.current.ports.map((p) => p.label)).toEqual(['Alpha', 'Beta']);
    expect(few.service.current.pinned).toBe(false);
    few.service.stop();
    const many = setup(
      Array.from({ length: 6 }, (_, i) => portView(`p${i}`, `Port ${i}`, `1.1.1.${i}`)),
      ['p4', 'p1', 'gone'],
    );
    await many.service.start();
    expect(many.service.current.ports.map((p) => p.portId)).toEqual(['p4', 'p1']);
    await many.service.setPinned([]);
    expect(many.service.current.ports).toEqual([]); // six is too many to list unpinned
  });

  it('renders only when the state changes, and counts a cooldown down once a second until it ends', async () => {
    const { service, renders, events, clock } = setup([portView('a', 'Alpha', '1.1.1.1')], ['a']);
    await service.start();
    expect(renders).toHaveLength(1);
    events.emit('ports:changed', { profileId: 'p1', changed: [portView('a', 'Alpha', '1.1.1.1')] });
    expect(renders).toHaveLength(1); // nothing changed, nothing rendered
    events.emit('ports:rotation', { profileId: 'p1', portId: 'a', phase: 'started', trigger: 'tray' });
    expect(renders.at(-1)?.ports[0]?.rotating).toBe(true);
    events.emit('ports:rotation', {
      profileId: 'p1',
      portId: 'a',
      phase: 'finished',
      trigger: 'tray',
      receipt: receipt('a', '3.3.3.3', 3_000),
    });
    expect(renders.at(-1)).toMatchObject({
      ports: [{ currentIp: '3.3.3.3', rotating: false, cooldownUntil: START + 3_000 }],
      lastReceipt: { label: 'Alpha', ip: '3.3.3.3' },
    });
    const before = renders.length;
    await clock.advance(10_000);
    // 12:00:01 and 12:00:02 tick, 12:00:03 ends the cooldown: three renders, then no timer at all.
    expect(renders.length - before).toBe(3);
    expect(renders.at(-1)?.ports[0]?.cooldownUntil).toBeNull();
    expect(clock.pending).toEqual([]);
    expect(clock.sleepDurations).toEqual([1000, 1000, 1000]);
  });

  it('turns clicks into rotations (trigger tray), Rotate all pinned into one staggered bulk call, and pauses schedules', async () => {
    const { service, calls } = setup(
      [portView('a', 'Alpha', '1.1.1.1'), portView('b', 'Beta', '2.2.2.2')],
      ['b', 'a'],
    );
    await service.start();
    await service.handleAction({ type: 'rotate-port', portId: 'a' });
    await service.handleAction({ type: 'rotate-all-pinned' });
    await service.handleAction({ type: 'pause-schedules', paused: true });
    await service.handleAction({ type: 'rotate-until-new', portId: 'b' });
    expect(calls).toEqual([
      'rotate a tray',
      'rotateMany b,a tray',
      'pause true',
      'rotate b tray until unique 3',
    ]);
  });

  it('the shortcut rotates the first pinned port, unless it is in cooldown', async () => {
    const { service, calls, events } = setup(
      [portView('a', 'Alpha', '1.1.1.1'), portView('b', 'Beta', '2')],
      ['b'],
    );
    await service.start();
    expect(await service.rotateFirstPinned()).toBe(true);
    expect(calls).toEqual(['rotate b shortcut']);
    events.emit('ports:rotation', {
      profileId: 'p1',
      portId: 'b',
      phase: 'finished',
      trigger: 'shortcut',
      receipt: receipt('b', '9.9.9.9', 30_000, 'shortcut'),
    });
    expect(await service.rotateFirstPinned()).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('after a restart, knows the cooldowns and the last receipt from the stored receipts', async () => {
    const stored = {
      a: { ...receipt('a', '3.3.3.3', 20_000), finishedAt: new Date(START - 1_000).toISOString() },
      b: receipt('b', '4.4.4.4', -5_000), // its cooldown is over
    };
    const { service, calls, clock } = setup(
      [portView('a', 'Alpha', '3.3.3.3'), portView('b', 'Beta', '4.4.4.4')],
      ['a', 'b'],
      { latest: stored },
    );
    await service.start();
    expect(service.current.ports).toMatchObject([
      { portId: 'a', cooldownUntil: START + 20_000 },
      { portId: 'b', cooldownUntil: null },
    ]);
    // The newest of them, with the port's label.
    expect(service.current.lastReceipt).toMatchObject({ label: 'Beta', ip: '4.4.4.4' });
    // The shortcut (first pinned: a) waits for the cooldown the receipt left.
    expect(await service.rotateFirstPinned()).toBe(false);
    await clock.advance(20_000);
    expect(service.current.ports[0]?.cooldownUntil).toBeNull();
    expect(await service.rotateFirstPinned()).toBe(true);
    expect(calls).toEqual(['rotate a shortcut']);
  });

  it('shows pending payments from the top-up watcher, read again when its set changes', async () => {
    let pending: PendingTopUpSummary[] = [
      {
        profileId: 'p2',
        topUpId: 't1',
        status: 'awaiting_payment',
        text: 'Top-up of 50.00 USD: awaiting payment',
      },
    ];
    const { service, renders } = setup([portView('a', 'Alpha', '1.1.1.1')], [], {
      pending: () => Promise.resolve(pending),
    });
    service.paymentsChanged(); // before start: ignored (nothing to render yet)
    await service.start();
    expect(service.current.payments).toEqual([
      { topUpId: 't1', text: 'Top-up of 50.00 USD: awaiting payment' },
    ]);
    const before = renders.length;
    pending = [{ ...pending[0]!, status: 'verifying', text: 'Top-up of 50.00 USD: 1 of 2 confirmations' }];
    service.paymentsChanged();
    await Promise.resolve();
    await Promise.resolve();
    expect(service.current.payments[0]?.text).toBe('Top-up of 50.00 USD: 1 of 2 confirmations');
    expect(renders.length).toBe(before + 1);
    // The same set again: no render.
    service.paymentsChanged();
    await Promise.resolve();
    await Promise.resolve();
    expect(renders.length).toBe(before + 1);
    pending = [];
    service.paymentsChanged();
    await Promise.resolve();
    await Promise.resolve();
    expect(service.current.payments).toEqual([]);
  });
});
