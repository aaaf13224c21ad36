import type { PortsRotation } from '../../../src-shared/contract';
import type { RelocationNotice } from '../ports/relocation-tracker';
import type { NotificationProvider, OsNotice } from './notification-kinds';
import { portRoute } from './notice-routes';

/** A rotation's outcome, from whatever started it (the tray, the shortcut, a schedule, a button). */
export interface RotationOutcome {
  profileId: string;
  portId: string;
  /** The port's label when known (menus and notices read better with it). */
  label: string | null;
  trigger: string;
  outcome:
    | { kind: 'rotated'; previousIp: string; ip: string; sameIp: boolean; receiptId: string }
    | { kind: 'failed'; message: string };
}

/** Rotations the user did not start in the window: the tray, the shortcut and schedules. */
const NOTIFIED_TRIGGERS = new Set(['tray', 'shortcut', 'schedule']);

export const rotationNotices: NotificationProvider<RotationOutcome> = {
  mayDisplay: (event) => NOTIFIED_TRIGGERS.has(event.trigger),
  build: (event): OsNotice => {
    const name = event.label ?? event.portId;
    const route = portRoute(event.portId);
    const by = event.trigger === 'schedule' ? ' (scheduled)' : '';
    if (event.outcome.kind === 'failed') {
      return {
        kind: 'rotation-failed',
        title: `Rotation failed: ${name}${by}`,
        body: event.outcome.message,
        dedupeKey: `rotation-failed:${event.profileId}:${event.portId}:${event.outcome.message}`,
        route,
      };
    }
    const { previousIp, ip, sameIp, receiptId } = event.outcome;
    return sameIp
      ? {
          kind: 'rotation-same-ip',
          title: `Same IP after rotation: ${name}${by}`,
          body: `The carrier handed back ${ip} again. You can rotate again once the cooldown ends.`,
          dedupeKey: `rotation:${receiptId}`,
          route,
        }
      : {
          kind: 'rotation-new-ip',
          title: `New IP: ${name}${by}`,
          body: `${previousIp} → ${ip}`,
          dedupeKey: `rotation:${receiptId}`,
          route,
        };
  },
};

/** A finished or failed `ports:rotation` event as an outcome; null while it is under way. */
export function rotationOutcomeOf(event: PortsRotation, label: string | null): RotationOutcome | null {
  const base = { profileId: event.profileId, portId: event.portId, label, trigger: event.trigger };
  if (event.phase === 'finished' && event.receipt) {
    const { previousIp, ip, sameIp, id } = event.receipt;
    return { ...base, outcome: { kind: 'rotated', previousIp, ip, sameIp, receiptId: id } };
  }
  if (event.phase === 'failed') {
    return { ...base, outcome: { kind: 'failed', message: event.error?.message ?? 'The rotation failed.' } };
  }
  return null;
}

export const relocationNotices: NotificationProvider<RelocationNotice> = {
  mayDisplay: () => true,
  build: (notice): OsNotice => ({
    kind: 'relocation-done',
    title:
      notice.state === 'active' ? `Relocation done: ${notice.label}` : `Relocation failed: ${notice.label}`,
    body: notice.message,
    dedupeKey: `relocation:${notice.profileId}:${notice.portId}:${notice.state}`,
    route: portRoute(notice.portId),
  }),
};
