import { toUnits } from '../../../src-shared/decimal';
import { ALERT_KINDS, type TrafficThreshold } from '../alerts/alert-rules';
import type { Settings } from '../settings/settings-schema';
import type { PollerPolicy } from './usage-poller';

const gbToBytes = (gb: string): number => Number(toUnits(gb, 9));

/** The poller's and the alert rules' view of the settings (GB thresholds as exact bytes). */
export function pollerPolicy(settings: Settings): PollerPolicy {
  const { alerts, polling } = settings;
  const threshold = (percent: number | undefined, gb: string | null | undefined): TrafficThreshold => ({
    ...(percent !== undefined ? { percent } : {}),
    ...(gb ? { bytes: gbToBytes(gb) } : {}),
  });
  return {
    enabled: Object.fromEntries(
      ALERT_KINDS.map((kind) => [kind, !alerts.disabledKinds.includes(kind)]),
    ) as PollerPolicy['enabled'],
    traffic: threshold(alerts.trafficRemainingPercent, alerts.trafficRemainingGb),
    trafficBySubscription: Object.fromEntries(
      Object.entries(alerts.trafficBySubscription).map(([id, t]) => [id, threshold(t.percent, t.gb)]),
    ),
    runsOutWithinDays: alerts.runsOutWithinDays,
    expiryWarningDays: alerts.expiryWarningDays,
    subUserAlertSubscriptions: alerts.subUserAlertSubscriptions,
    visibleIntervalMs: polling.usageVisibleMinutes * 60_000,
    trayIntervalMs: polling.usageMinutes * 60_000,
  };
}
