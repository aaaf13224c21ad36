import { z } from 'zod';
import type { IpHistoryEntry, MobilePort, UsageReport } from '../api-types';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { type ListFreshness, listInput, type WireTable } from './list-views';
import type { PortHealth, PortHealthChanged, PortHealthHistory, RotationVerdict } from './port-health';
import type { IpcError } from './results';
import {
  countryCode,
  dayRangeCheck,
  isoDay,
  labelInput,
  noInput,
  page,
  perPage,
  resourceId,
} from './shared-inputs';

/**
 * `Omit` for API types: they are loose objects with a string index signature, under which plain `Omit`
 * would drop every named member.
 */
type OmitMembers<T, K extends string> = {
  [P in keyof T as string extends P ? never : P extends K ? never : P]: T[P];
};

/** A mobile port as the renderer sees it: the rotation link (it carries the key) is left in main. */
export type MobilePortView = OmitMembers<MobilePort, 'rotationLink'> & { hasRotationLink: boolean };

/**
 * A port as the Ports list shows it. No password and nothing only the detail needs (credentials,
 * endpoint, plan, dates of creation): the detail reads the whole port (`ports:get`).
 */
export type PortRow = Pick<
  MobilePortView,
  | 'id'
  | 'label'
  | 'status'
  | 'country'
  | 'city'
  | 'carrierName'
  | 'networkType'
  | 'currentIp'
  | 'ipChangedAt'
  | 'expiresAt'
  | 'autoRenew'
  | 'rotation'
>;

/** The columns of `ports:list` on the wire, in order; `rotation` is split in two. */
export const PORT_ROW_COLUMNS = [
  'id',
  'label',
  'status',
  'country',
  'city',
  'carrierName',
  'networkType',
  'currentIp',
  'ipChangedAt',
  'expiresAt',
  'autoRenew',
  'rotationMode',
  'rotationMinutes',
] as const;

export type PortRowValues = [
  id: string,
  label: string,
  status: MobilePort['status'],
  country: string,
  city: string | null,
  carrierName: string,
  networkType: string,
  currentIp: string,
  ipChangedAt: string,
  expiresAt: string,
  autoRenew: boolean,
  rotationMode: MobilePort['rotation']['mode'],
  rotationMinutes: number | null,
];

/** `ports:list`: the ports as a table of `PORT_ROW_COLUMNS`, with whose and how fresh they are. */
export type PortsListView = ListFreshness & WireTable<typeof PORT_ROW_COLUMNS, PortRowValues>;

/** `ports:list`'s table as rows (for main's surfaces; the renderer has its own copy: it imports types only). */
export function portRowsOf(view: Pick<PortsListView, 'rows'>): PortRow[] {
  return view.rows.map((values) => ({
    id: values[0],
    label: values[1],
    status: values[2],
    country: values[3],
    city: values[4],
    carrierName: values[5],
    networkType: values[6],
    currentIp: values[7],
    ipChangedAt: values[8],
    expiresAt: values[9],
    autoRenew: values[10],
    rotation: { mode: values[11], intervalMinutes: values[12] },
  }));
}

/**
 * What started a rotation: shown on receipts, in notifications and in the IP history. `cli`, `mcp`
 * and `rest` are the automation surfaces (a script, an agent, a REST token).
 */
export type RotationTrigger = 'button' | 'tray' | 'shortcut' | 'schedule' | 'bulk' | 'cli' | 'mcp' | 'rest';

/** The exit IP read through the port itself (the proxy test), compared with what the API said. */
export interface ExitIpVerification {
  exitIp: string;
  /** False: the API reported one IP and traffic leaves from another. */
  matches: boolean;
}

/**
 * What one rotation did, as the app saw it. Times are ISO 8601 (UTC). `sameIp` is the carrier
 * handing back the IP the port had before: the rotation happened, the IP did not change.
 */
export interface RotationReceipt {
  /** Unique per receipt (to merge receipts into the IP history and to dedupe events). */
  id: string;
  portId: string;
  previousIp: string;
  ip: string;
  sameIp: boolean;
  startedAt: string;
  finishedAt: string;
  tookMs: number;
  nextRotationAvailableAt: string;
  trigger: RotationTrigger;
  /** Rotations sent for this receipt: 1, or more for "rotate until new". */
  attempts: number;
  /**
   * `answer`: the service's answer to the rotation. `reread`: the answer was lost (network error,
   * timeout) and the port, read again, shows that the rotation happened; it was not sent twice.
   */
  confirmedBy: 'answer' | 'reread';
  /** "Rotate until new" only: whether the final IP is outside the port's last `lastN` IPs. */
  untilNew: { lastN: number; maxTries: number; reachedNewIp: boolean } | null;
  verification: ExitIpVerification | null;
  /** The check through the port after the rotation; absent on receipts from before verdicts existed. */
  verdict?: RotationVerdict | null;
  /** "Rotate until unique" only: rotations at most, and whether the last verdict is `clean`. */
  untilUnique?: { maxTries: number; reachedClean: boolean } | null;
}

/** One port's answer in a bulk rotation. */
export type RotateManyOutcome =
  { portId: string; ok: true; receipt: RotationReceipt } | { portId: string; ok: false; error: IpcError };

/** An IP history entry with the app's own receipt for the rotation that assigned it, when there is one. */
export interface IpHistoryRow extends IpHistoryEntry {
  receipt: RotationReceipt | null;
}

export interface IpHistoryView {
  data: IpHistoryRow[];
  pagination: { page: number; perPage: number; total: number; totalPages: number };
}

export interface IpHistoryExport {
  /** Suggested file name, e.g. `port-mp_123-ip-history.csv`. */
  fileName: string;
  csv: string;
  rows: number;
}

/** A relocation the tracker follows until the port is `active` on its new modem. */
export interface RelocationProgress {
  portId: string;
  /** `provisioning` while waiting; `active` once done; `failed` when tracking gave up (port gone, expired). */
  state: 'provisioning' | 'active' | 'failed';
  startedAt: string;
  /** When the tracker reads the port next; null once done. */
  nextCheckAt: string | null;
  checks: number;
  /** A sentence for the user (why it failed, or the new endpoint). */
  message: string | null;
}

export interface PortsChanged {
  profileId: string;
  /**
   * The ports whose state main learned of (after a write, or a background read: then only those that
   * differ from main's last list); others are unchanged.
   */
  changed: MobilePortView[];
  /** Ports gone from the account (a read of the whole list no longer has them). */
  removed?: string[];
  /** After a read of the whole list: when main read it (ISO 8601), the age the list screen shows. */
  asOf?: string;
  /** Relocations whose progress changed with this read (the tracker's view). */
  relocations?: RelocationProgress[];
}

/** Progress of a rotation, for every window and the tray: whoever started it. */
export interface PortsRotation {
  profileId: string;
  portId: string;
  phase: 'started' | 'finished' | 'failed';
  trigger: RotationTrigger;
  receipt?: RotationReceipt;
  error?: IpcError;
}

const PORT_ID_MAX = 128;
const ROTATE_MANY_MAX = 1000;
export const UNTIL_NEW_LIMITS = { lastN: { min: 1, max: 20 }, maxTries: { min: 1, max: 10 } } as const;
export const UNTIL_UNIQUE_MAX_TRIES = 10;
export const ROTATION_INTERVAL_MINUTES = { min: 1, max: 1440 } as const;
/** The longest usage range, in days, both ends included. */
export const USAGE_RANGE_MAX_DAYS = 366;

export const portId = resourceId('Choose a port', PORT_ID_MAX);

const portLabel = labelInput('Give the port a label');

const rotationSetting = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('manual') }),
  z.strictObject({
    mode: z.literal('interval'),
    intervalMinutes: z
      .int('Whole minutes')
      .min(ROTATION_INTERVAL_MINUTES.min, `At least ${ROTATION_INTERVAL_MINUTES.min} minute`)
      .max(ROTATION_INTERVAL_MINUTES.max, `At most ${ROTATION_INTERVAL_MINUTES.max} minutes (24 hours)`),
  }),
]);

const usageInput = z
  .strictObject({ portId, from: isoDay.optional(), to: isoDay.optional() })
  .superRefine(dayRangeCheck(USAGE_RANGE_MAX_DAYS));

const portOnly = z.strictObject({ portId });

export const portsCalls = {
  /**
   * What the Ports list shows, lean (no password, no rotation link, nothing only the detail needs:
   * `ports:get` reads the whole port), as a table. Answered at once from main's snapshot of the
   * profile's ports when it has one, read again behind it when older than a few seconds (the changes
   * come as `ports:changed`, with `asOf`); `fresh` (the Refresh button) waits for the service.
   */
  'ports:list': call<PortsListView>('read')(listInput.optional()),
  'ports:get': call<MobilePortView>('read')(portOnly),
  'ports:update': call<MobilePortView>('manage')(
    z
      .strictObject({
        portId,
        label: portLabel.optional(),
        autoRenew: z.boolean().optional(),
        rotation: rotationSetting.optional(),
      })
      .refine((value) => value.label !== undefined || value.autoRenew !== undefined || value.rotation, {
        message: 'Nothing to change',
      }),
  ),
  'ports:rotate': call<RotationReceipt>('rotate')(
    z.strictObject({
      portId,
      untilNew: z
        .strictObject({
          lastN: z.int().min(UNTIL_NEW_LIMITS.lastN.min).max(UNTIL_NEW_LIMITS.lastN.max),
          maxTries: z.int().min(UNTIL_NEW_LIMITS.maxTries.min).max(UNTIL_NEW_LIMITS.maxTries.max),
        })
        .optional(),
      /** Rotate (waiting out cooldowns) until the verdict is `clean`, at most this many times. */
      untilUnique: z
        .int('Whole tries')
        .min(1, 'At least 1 try')
        .max(UNTIL_UNIQUE_MAX_TRIES, `At most ${UNTIL_UNIQUE_MAX_TRIES} tries`)
        .optional(),
    }),
  ),
  'ports:rotateMany': call<RotateManyOutcome[]>('rotate')(
    z.strictObject({
      portIds: z
        .array(portId)
        .min(1, 'Choose at least one port')
        .max(ROTATE_MANY_MAX, `At most ${ROTATE_MANY_MAX} ports at once`),
    }),
  ),
  'ports:relocate': call<MobilePortView>('manage')(
    z.strictObject({
      portId,
      country: countryCode,
      carrier: z.string().trim().min(1, 'Choose a carrier').max(100),
      city: z.string().trim().min(1).max(100).nullable().optional(),
    }),
  ),
  'ports:relocations': call<RelocationProgress[]>('read')(noInput),
  'ports:resetPassword': call<MobilePortView>('manage')(portOnly),
  'ports:ipHistory': call<IpHistoryView>('read')(z.strictObject({ portId, page, perPage })),
  'ports:exportIpHistory': call<IpHistoryExport>('read')(portOnly),
  'ports:usage': call<UsageReport>('read')(usageInput),
  /** The only call whose answer holds the rotation link (it carries the API key). */
  'ports:revealRotationLink': call<{ rotationLink: string }>('secrets')(portOnly),
  'ports:receipts': call<RotationReceipt[]>('read')(portOnly),
  /**
   * Scores of the active profile's ports from the health checks and rotation verdicts (24 h and
   * 30 d uptime, latency, rotations, unique-IP ratio, unchanged and repeated counts); one port with
   * `portId`. Read from the health store: any process answers it, not only the job owner.
   */
  'ports:health': call<PortHealth[]>('read')(z.strictObject({ portId: portId.optional() }).optional()),
  /** The uptime bar and latency band of one port: 96 quarter hours (24 h) or 30 days. */
  'ports:healthHistory': call<PortHealthHistory>('read')(
    z.strictObject({ portId, range: z.enum(['24h', '30d']).default('24h') }),
  ),
} as const satisfies DomainCalls<'ports'>;

export const portsEvents = {
  'ports:changed': event<PortsChanged>(),
  'ports:rotation': event<PortsRotation>(),
  'ports:healthChanged': event<PortHealthChanged>(),
} as const satisfies DomainEvents<'ports'>;
