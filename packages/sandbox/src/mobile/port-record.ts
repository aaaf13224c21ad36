import type { RetiredPassword } from '../gateway/gateway-credentials';
import type { GatewayLedger } from '../usage/usage-report';

/** The spec's `minRotationIntervalSeconds`: one rotation per 30 s. */
export const MIN_ROTATION_INTERVAL_SECONDS = 30;
/** Allowed `rotation.intervalMinutes` (the spec does not say): from 1 minute to 24 hours. */
export const MIN_INTERVAL_MINUTES = 1;
export const MAX_INTERVAL_MINUTES = 1440;
/** Older IP history entries are dropped beyond this many per port, so state stays bounded. */
export const IP_HISTORY_CAP = 1000;
/** A relocated port is back online this many seconds later (the spec: usually under 2 minutes). */
export const PROVISIONING_MIN_SECONDS = 80;
export const PROVISIONING_MAX_SECONDS = 100;
export const LABEL_MAX_LENGTH = 60;

type PortStatus = 'active' | 'provisioning' | 'expired';
export type RotationMode = 'interval' | 'manual';
/**
 * Why an IP was assigned: `initial` (the port's first modem), `manual` (POST rotate), `link`
 * (GET rotate), `interval` (the port's timer), `relocation` (the new modem after a relocation).
 */
export type IpTrigger = 'initial' | 'manual' | 'link' | 'interval' | 'relocation';

export interface IpHistoryRecord {
  ip: string;
  assignedAt: number;
  /** Null while current. */
  releasedAt: number | null;
  trigger: IpTrigger;
}

/** Where the port's traffic exited from `since` on (relocations add entries), for usage by country. */
interface PortLocationRecord {
  country: string;
  since: number;
}

export interface MobilePortRecord {
  id: string;
  label: string;
  status: PortStatus;
  country: string;
  city: string | null;
  carrier: string;
  /** Kept with the port so that it still renders if the catalog drops the carrier. */
  carrierName: string;
  networkType: string;
  username: string;
  password: string;
  /** Passwords replaced less than a minute ago, still accepted by the gateway. */
  retiredPasswords?: RetiredPassword[];
  rotation: { mode: RotationMode; intervalMinutes: number | null };
  /** When the interval timer rotates next; null in manual mode. Paused while provisioning. */
  nextIntervalRotationAt: number | null;
  /** When the new modem of a relocation comes online; null unless provisioning. */
  provisioningReadyAt: number | null;
  planId: string;
  autoRenew: boolean;
  createdAt: number;
  expiresAt: number;
  /** Oldest first, at most `IP_HISTORY_CAP` entries; the last entry is the current IP. */
  ipHistory: IpHistoryRecord[];
  locations: PortLocationRecord[];
  /** Mean traffic per day, for the (informational) usage report. */
  meanDailyBytes: number;
  /** Traffic that went through the sandbox's gateway (absent until some did), added to the report. */
  gateway?: GatewayLedger;
  /** Control API: the modem answers no proxy request before this time (epoch ms); absent when online. */
  modemOfflineUntil?: number;
  /**
   * Control API: the network the port's exit reports instead of its carrier's (ASN and country), as
   * when a carrier routes a modem through another network. A relocation (new modem) clears it.
   */
  exitNetwork?: { asn: number; asnName: string; country: string };
}

/** The entry of the IP the port has now. */
export function currentEntry(port: MobilePortRecord): IpHistoryRecord {
  const entry = port.ipHistory[port.ipHistory.length - 1];
  if (!entry) throw new Error(`port ${port.id} has no IP history`);
  return entry;
}
