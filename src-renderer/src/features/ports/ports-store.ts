import { create } from 'zustand';
import type { UsageReport } from '../../../../src-shared/api-types';
import type {
  IpcError,
  IpcResult,
  IpHistoryExport,
  IpHistoryView,
  MobilePortView,
  PortHealth,
  PortHealthChanged,
  PortHealthHistory,
  PortRow,
  PortsListView,
  PortsRotation,
  RelocationProgress,
  RotateManyOutcome,
  RotationReceipt,
  ScheduleCadence,
  ScheduleRun,
  SchedulesView,
  TrayView,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, inMap, type LoadableSlice } from '../../shared/loadable-slice';
import { mergeById } from '../../shared/merge-by-id';
import type { ListAgeValue } from '../../shared/components/ListAge';
import { rowsOfTable } from '../../shared/wire-table';

/**
 * One port's rotation as the screens show it: in progress (5-15 s), its receipt, or why it failed.
 * `retryAt` (ms since the epoch) is when a 429's Retry-After ends.
 */
export interface RotationState {
  phase: 'rotating' | 'done' | 'failed';
  receipt: RotationReceipt | null;
  error: IpcError | null;
  retryAt: number | null;
}

interface RotateOptions {
  untilNew?: { lastN: number; maxTries: number };
  /** Rotate again (waiting out cooldowns) until the verdict is clean, at most this many times. */
  untilUnique?: number;
}

export type HealthRange = PortHealthHistory['range'];

const HISTORY_PER_PAGE = 20;

/** What `schedules:set` takes besides the ports: one editor fills it for one port or a selection. */
export interface ScheduleInput {
  cadence: ScheduleCadence;
  jitterSeconds: number;
  staggerSeconds: number;
}

/** Mobile ports of the active account, their rotations, relocations, IP history and usage. */
interface PortsStore {
  /** The list as the Ports screen shows it (`ports:list`: lean rows, no secrets). */
  ports: Loadable<PortRow[]>;
  /** How old main's list is and whether main is reading it again (`ports:list`, `ports:changed`). */
  portsAge: ListAgeValue | null;
  /** Whole ports, for the detail (`ports:get`: credentials, plan, rotation link flag). */
  details: Record<string, Loadable<MobilePortView>>;
  selected: Set<string>;
  rotations: Record<string, RotationState>;
  relocations: Record<string, RelocationProgress>;
  ipHistory: Record<string, Loadable<IpHistoryView>>;
  usage: Record<string, Loadable<UsageReport>>;
  receipts: Record<string, Loadable<RotationReceipt[]>>;
  /**
   * Every port's health scores (`ports:health`: up or down, uptime, latency, verdict counts), in
   * the list's order: what the port page shows, and all a Ports-list column needs.
   */
  health: Loadable<PortHealth[]>;
  /** One port's scores (`ports:health` with its id): the port page reads only its own port's. */
  portHealth: Record<string, Loadable<PortHealth[]>>;
  /** One port's uptime bar and latency band, keyed `portId|range` (`ports:healthHistory`). */
  healthHistory: Record<string, Loadable<PortHealthHistory>>;
  /** The app's own rotation schedules of the active profile, and "Pause schedules". */
  schedules: Loadable<SchedulesView>;
  /** Each port's whole run log (`schedules:runs`), for the detail. */
  scheduleRuns: Record<string, Loadable<ScheduleRun[]>>;

  load: (force?: boolean) => Promise<void>;
  /** Loads the list again if it was loaded (after a reconnect: changes may have been missed). */
  reloadLoaded: () => Promise<void>;
  /**
   * Ports that main says changed (`ports:changed`): replaced in place, new ones added at the end,
   * `removed` ones dropped; `asOf` (after main read the whole list) is the list's new age.
   */
  applyChanges: (
    changed: MobilePortView[],
    relocations?: RelocationProgress[],
    removed?: string[],
    asOf?: string,
  ) => void;
  /** Main's snapshot of the list sent with the first state: in place at once, as if loaded. */
  seed: (view: PortsListView) => void;
  /** The whole port for the detail (`ports:get`), read as the detail opens; `force` reads it again. */
  loadDetail: (portId: string, force?: boolean) => Promise<void>;
  /** `ports:rotation`: a rotation started or ended, whoever started it (tray, schedule, another window). */
  applyRotation: (event: PortsRotation) => void;
  setSelected: (keys: Set<string>) => void;

  rotate: (portId: string, options?: RotateOptions) => Promise<void>;
  /** Rotates several ports (main paces them and waits out cooldowns); answers each port's outcome. */
  rotateMany: (portIds: string[]) => Promise<RotateManyOutcome[]>;
  update: (
    portId: string,
    patch: {
      label?: string;
      autoRenew?: boolean;
      rotation?: { mode: 'manual' } | { mode: 'interval'; intervalMinutes: number };
    },
  ) => Promise<IpcResult<MobilePortView>>;
  resetPassword: (portId: string) => Promise<IpcResult<MobilePortView>>;
  /** The rotation link, for one copy: answered to the caller and never kept here. */
  revealRotationLink: (portId: string) => Promise<IpcResult<{ rotationLink: string }>>;
  relocate: (
    portId: string,
    target: { country: string; carrier: string; city?: string | null },
  ) => Promise<IpcResult<MobilePortView>>;
  loadRelocations: () => Promise<void>;
  loadIpHistory: (portId: string, page: number, force?: boolean) => Promise<void>;
  exportIpHistory: (portId: string) => Promise<IpcResult<IpHistoryExport>>;
  loadUsage: (portId: string, from?: string, to?: string, force?: boolean) => Promise<void>;
  loadReceipts: (portId: string, force?: boolean) => Promise<void>;
  loadHealth: (force?: boolean) => Promise<void>;
  loadPortHealth: (portId: string, force?: boolean) => Promise<void>;
  loadHealthHistory: (portId: string, range: HealthRange, force?: boolean) => Promise<void>;
  /**
   * `ports:healthChanged`: a port's checks moved it up or down. Its status, since and last check
   * change at once wherever its scores are held (the list's Health cell, the port's Health tab),
   * and an uptime bar already read is read again (its recent checks include the new one).
   */
  applyHealthChange: (change: PortHealthChanged) => void;
  loadSchedules: (force?: boolean) => Promise<void>;
  /** `schedules:changed` (already checked to be the active profile's): replaces the view. */
  applySchedules: (view: SchedulesView) => void;
  setSchedule: (portIds: string[], input: ScheduleInput) => Promise<IpcResult<SchedulesView>>;
  removeSchedule: (portIds: string[]) => Promise<IpcResult<SchedulesView>>;
  pauseSchedules: (paused: boolean) => Promise<IpcResult<SchedulesView>>;
  loadScheduleRuns: (portId: string, force?: boolean) => Promise<void>;
  /** Which ports the desktop tray menu lists (`tray:get`), in menu order. */
  tray: Loadable<TrayView>;
  loadTray: (force?: boolean) => Promise<void>;
  /** `tray:changed` (already checked to be the active profile's): replaces the view. */
  applyTray: (view: TrayView) => void;
  /** Pins or unpins one port; `first` puts it first (the port the global shortcut rotates). */
  pinToTray: (portId: string, pinned: boolean, first?: boolean) => Promise<IpcResult<TrayView>>;
  reset: () => void;
}

/** The state of a store with no account behind it: also what `reset` goes back to. */
const empty = () => ({
  ports: idle<PortRow[]>(),
  portsAge: null,
  details: {},
  selected: new Set<string>(),
  rotations: {},
  relocations: {},
  ipHistory: {},
  usage: {},
  receipts: {},
  health: idle<PortHealth[]>(),
  portHealth: {},
  healthHistory: {},
  schedules: idle<SchedulesView>(),
  scheduleRuns: {},
  tray: idle<TrayView>(),
});

const retryAtOf = (error: IpcError, now: number) =>
  error.retryAfterMs === undefined ? null : now + error.retryAfterMs;

/** The port as the receipt left it, until main's own `ports:changed` arrives. */
function withReceipt<T extends PortRow>(port: T, receipt: RotationReceipt): T {
  return port.id === receipt.portId
    ? { ...port, currentIp: receipt.ip, ipChangedAt: receipt.finishedAt }
    : port;
}

/** What the list keeps of a port main sent whole (an event, a write's answer): its row. */
function toPortRow(port: PortRow): PortRow {
  return {
    id: port.id,
    label: port.label,
    status: port.status,
    country: port.country,
    city: port.city,
    carrierName: port.carrierName,
    networkType: port.networkType,
    currentIp: port.currentIp,
    ipChangedAt: port.ipChangedAt,
    expiresAt: port.expiresAt,
    autoRenew: port.autoRenew,
    rotation: port.rotation,
  };
}

/** The columns this page reads (`PORT_ROW_COLUMNS` in the contract; the type checks they are the same). */
const PORT_COLUMNS: PortsListView['columns'] = [
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
];

/** `ports:list`'s table as rows. */
function rowsOfPortsList(view: PortsListView): PortRow[] {
  return rowsOfTable(view, PORT_COLUMNS, (values) => ({
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
 * The IP history as the receipt left it, until it is read again: the IP the port had is released at
 * the receipt's end and, on the first page, the new IP is the current one. A carrier that gave the
 * same IP back changed nothing in the history.
 */
function withRotationInHistory(view: IpHistoryView, receipt: RotationReceipt, page: number): IpHistoryView {
  if (receipt.sameIp || view.data.some((row) => row.ip === receipt.ip && row.releasedAt === null))
    return view;
  const released = view.data.map((row) =>
    row.releasedAt === null ? { ...row, releasedAt: receipt.finishedAt } : row,
  );
  if (page !== 1) return { ...view, data: released };
  const current = {
    ip: receipt.ip,
    assignedAt: receipt.finishedAt,
    releasedAt: null,
    trigger: 'manual',
    receipt,
  };
  return {
    data: [current, ...released],
    pagination: { ...view.pagination, total: view.pagination.total + 1 },
  };
}

export const usePortsStore = create<PortsStore>()((set, get) => {
  const setRotation = (portId: string, state: RotationState) =>
    set((current) => ({ rotations: { ...current.rotations, [portId]: state } }));
  const finished = (receipt: RotationReceipt) => {
    setRotation(receipt.portId, { phase: 'done', receipt, error: null, retryAt: null });
    portsList.updateLoaded((list) => list.map((port) => withReceipt(port, receipt)));
    detailList.updateLoaded((port) => withReceipt(port, receipt));
    // The history on screen shows the new IP at once, then what the service now says.
    historyList.updateLoaded((view, [portId, page]) =>
      portId === receipt.portId ? withRotationInHistory(view, receipt, page) : view,
    );
    void refreshHistory(receipt.portId);
    // The receipts table keeps every receipt of the session, not only the newest.
    receiptsList.updateLoaded((list, [portId]) =>
      portId === receipt.portId && !list.some((known) => known.id === receipt.id) ? [...list, receipt] : list,
    );
  };
  /** Reads again the history pages of a port that were read (the receipts are merged by main). */
  const refreshHistory = (portId: string) =>
    Promise.all(
      Object.keys(get().ipHistory)
        .map(
          (key) => [key.slice(0, key.lastIndexOf('|')), Number(key.slice(key.lastIndexOf('|') + 1))] as const,
        )
        .filter(([id]) => id === portId)
        .map(([id, page]) => historyList.load([id, page], true)),
    );
  const failed = (portId: string, error: IpcError) =>
    setRotation(portId, { phase: 'failed', receipt: null, error, retryAt: retryAtOf(error, Date.now()) });
  const rotating = (portId: string) =>
    setRotation(portId, {
      phase: 'rotating',
      receipt: get().rotations[portId]?.receipt ?? null,
      error: null,
      retryAt: null,
    });
  const merged = (result: IpcResult<MobilePortView>) => {
    if (result.ok) {
      portsList.updateLoaded((list) => mergeById(list, [toPortRow(result.value)]));
      detailList.updateLoaded((port) => (port.id === result.value.id ? result.value : port));
    }
    return result;
  };
  /** A run log on screen is read again when a run may have been added (only logs already read). */
  const refreshRuns = (portIds: readonly string[]) =>
    Promise.all(
      portIds.filter((id) => get().scheduleRuns[id] !== undefined).map((id) => runsList.load([id], true)),
    );
  const viewed = (result: IpcResult<SchedulesView>) => {
    if (result.ok) get().applySchedules(result.value);
    return result;
  };

  return {
    ...empty(),
    // Refresh and Retry wait for the service; a plain load takes main's snapshot.
    load: (force = false) => portsList.load(force ? [true] : [], force),
    reloadLoaded: async () => {
      // Relocation progress pushed while the socket was down was lost too; only worth asking for
      // when the ports were on screen.
      const loaded = get().ports.status !== 'idle';
      await Promise.all([
        portsList.reloadLoaded(),
        loaded ? get().loadRelocations() : undefined,
        schedulesSlice.reloadLoaded(),
        runsList.reloadLoaded(),
        traySlice.reloadLoaded(),
      ]);
    },
    applyChanges: (changed, relocations, removed, asOf) => {
      portsList.updateLoaded((list) => {
        const merged = mergeById(list, changed.map(toPortRow));
        if (!removed?.length) return merged;
        const gone = new Set(removed);
        return merged.filter((port) => !gone.has(port.id));
      });
      if (changed.length) {
        const byId = new Map(changed.map((port) => [port.id, port]));
        detailList.updateLoaded((port) => byId.get(port.id) ?? port);
      }
      if (asOf && get().ports.status !== 'idle') set({ portsAge: { asOf, revalidating: false } });
      if (relocations?.length)
        set((current) => ({
          relocations: {
            ...current.relocations,
            ...Object.fromEntries(relocations.map((progress) => [progress.portId, progress])),
          },
        }));
    },
    applyRotation: (event) => {
      if (event.phase === 'started') rotating(event.portId);
      else if (event.phase === 'finished' && event.receipt) finished(event.receipt);
      else if (event.phase === 'failed' && event.error) failed(event.portId, event.error);
      if (event.phase !== 'started') void refreshRuns([event.portId]);
    },
    setSelected: (selected) => set({ selected }),
    loadDetail: (portId, force = false) => detailList.load([portId], force),
    seed: (view) => {
      if (get().ports.status !== 'idle') return;
      portsList.seed([], rowsOfPortsList(view));
      set({ portsAge: { asOf: view.asOf, revalidating: view.revalidating } });
    },

    rotate: async (portId, options = {}) => {
      if (get().rotations[portId]?.phase === 'rotating') return;
      rotating(portId);
      const result = await callApi((api) =>
        api.ports.rotate({
          portId,
          ...(options.untilNew ? { untilNew: options.untilNew } : {}),
          ...(options.untilUnique ? { untilUnique: options.untilUnique } : {}),
        }),
      );
      if (result.ok) finished(result.value);
      else failed(portId, result.error);
    },
    rotateMany: async (portIds) => {
      const busy = portIds.filter((id) => get().rotations[id]?.phase === 'rotating');
      const ids = portIds.filter((id) => !busy.includes(id));
      const skipped: RotateManyOutcome[] = busy.map((portId) => ({
        portId,
        ok: false,
        error: { code: 'rotation_in_progress', message: 'A rotation of this port was already under way' },
      }));
      if (!ids.length) return skipped;
      for (const id of ids) rotating(id);
      const result = await callApi((api) => api.ports.rotateMany({ portIds: ids }));
      if (!result.ok) {
        for (const id of ids) failed(id, result.error);
        return [...skipped, ...ids.map((portId) => ({ portId, ok: false as const, error: result.error }))];
      }
      for (const outcome of result.value) {
        if (outcome.ok) finished(outcome.receipt);
        else failed(outcome.portId, outcome.error);
      }
      return [...skipped, ...result.value];
    },
    update: async (portId, patch) => merged(await callApi((api) => api.ports.update({ portId, ...patch }))),
    resetPassword: async (portId) => merged(await callApi((api) => api.ports.resetPassword({ portId }))),
    revealRotationLink: (portId) => callApi((api) => api.ports.revealRotationLink({ portId })),
    relocate: async (portId, target) => {
      const result = merged(await callApi((api) => api.ports.relocate({ portId, ...target })));
      if (result.ok) await get().loadRelocations();
      return result;
    },
    loadRelocations: async () => {
      const result = await callApi((api) => api.ports.relocations());
      if (!result.ok) return;
      set((current) => ({
        relocations: {
          ...current.relocations,
          ...Object.fromEntries(result.value.map((progress) => [progress.portId, progress])),
        },
      }));
    },
    loadIpHistory: (portId, page, force = false) => historyList.load([portId, page], force),
    exportIpHistory: (portId) => callApi((api) => api.ports.exportIpHistory({ portId })),
    loadUsage: (portId, from, to, force = false) => usageList.load([portId, from, to], force),
    loadReceipts: (portId, force = false) => receiptsList.load([portId], force),
    loadHealth: (force = false) => healthSlice.load([], force),
    loadPortHealth: (portId, force = false) => portHealthList.load([portId], force),
    loadHealthHistory: (portId, range, force = false) => healthHistoryList.load([portId, range], force),
    applyHealthChange: (change) => {
      const portId = change.id;
      const patch = (entries: PortHealth[]) =>
        entries.map((entry) =>
          entry.portId === portId
            ? {
                ...entry,
                status: change.status,
                statusSince: change.statusSince,
                failuresInARow: change.failuresInARow,
                lastCheck: change.lastCheck,
              }
            : entry,
        );
      set((current) => {
        const one = current.portHealth[portId];
        return {
          health: current.health.data
            ? { ...current.health, data: patch(current.health.data) }
            : current.health,
          portHealth: one?.data
            ? { ...current.portHealth, [portId]: { ...one, data: patch(one.data) } }
            : current.portHealth,
        };
      });
      for (const [key, history] of Object.entries(get().healthHistory)) {
        const [historyPort, range] = key.split('|') as [string, HealthRange];
        if (historyPort === portId && history.status === 'ready')
          void healthHistoryList.load([portId, range], true);
      }
    },
    loadSchedules: (force = false) => schedulesSlice.load([], force),
    applySchedules: (view) => {
      const previous = get().schedules.data;
      set({ schedules: { status: 'ready', data: view, error: null } });
      // A log is read again only when its port's newest run is not the one it already had.
      const newest = (from: SchedulesView | null, portId: string) =>
        from?.schedules.find((schedule) => schedule.portId === portId)?.lastRuns[0]?.at ?? null;
      void refreshRuns(
        Object.keys(get().scheduleRuns).filter((id) => newest(view, id) !== newest(previous, id)),
      );
    },
    setSchedule: async (portIds, input) =>
      viewed(await callApi((api) => api.schedules.set({ portIds, ...input }))),
    removeSchedule: async (portIds) => viewed(await callApi((api) => api.schedules.remove({ portIds }))),
    pauseSchedules: async (paused) => viewed(await callApi((api) => api.schedules.pause({ paused }))),
    loadScheduleRuns: (portId, force = false) => runsList.load([portId], force),
    loadTray: (force = false) => traySlice.load([], force),
    applyTray: (view) => set({ tray: { status: 'ready', data: view, error: null } }),
    pinToTray: async (portId, pinned, first = false) => {
      const current = get().tray.data?.pinnedPortIds ?? [];
      const others = current.filter((id) => id !== portId);
      const portIds = !pinned
        ? others
        : first
          ? [portId, ...others]
          : current.includes(portId)
            ? current
            : [...current, portId];
      const result = await callApi((api) => api.tray.setPinned({ portIds }));
      if (result.ok) get().applyTray(result.value);
      return result;
    },
    reset: () => {
      for (const slice of [
        portsList,
        detailList,
        historyList,
        usageList,
        receiptsList,
        healthSlice,
        portHealthList,
        healthHistoryList,
        schedulesSlice,
        runsList,
        traySlice,
      ])
        slice.forget();
      set(empty());
    },
  };
});

/** The age of the last `ports:list` answer, written beside its rows when the slice keeps them. */
let lastPortsAge: ListAgeValue | null = null;

/** `ports:list` asked for: the rows, and the list's age beside them. `fresh`: Refresh waits for the service. */
async function fetchPorts(fresh: boolean): Promise<IpcResult<PortRow[]>> {
  const result = await callApi((api) => api.ports.list(fresh ? { fresh } : undefined));
  if (!result.ok) return result;
  lastPortsAge = { asOf: result.value.asOf, revalidating: result.value.revalidating };
  return { ok: true, value: rowsOfPortsList(result.value) };
}

export const portsList: LoadableSlice<PortsStore, PortRow[], [fresh?: boolean]> = createLoadableSlice<
  PortsStore,
  PortRow[],
  [fresh?: boolean]
>(usePortsStore, {
  place: inField<PortsStore, PortRow[]>('ports'),
  key: () => '',
  fetch: (fresh?: boolean) => fetchPorts(fresh === true),
  alongside: () => ({ portsAge: lastPortsAge }),
});

const detailList: LoadableSlice<PortsStore, MobilePortView, [string]> = createLoadableSlice(usePortsStore, {
  place: inMap<PortsStore, MobilePortView>('details'),
  key: (portId) => portId,
  supersede: true,
  fetch: (portId) => callApi((api) => api.ports.get({ portId })),
});

const historyKey = (portId: string, page: number) => `${portId}|${page}`;
export const historyList: LoadableSlice<PortsStore, IpHistoryView, [string, number]> = createLoadableSlice(
  usePortsStore,
  {
    place: inMap<PortsStore, IpHistoryView>('ipHistory'),
    key: historyKey,
    supersede: true,
    fetch: (portId, page) =>
      callApi((api) => api.ports.ipHistory({ portId, page, perPage: HISTORY_PER_PAGE })),
  },
);

const usageKey = (portId: string, from?: string, to?: string) => `${portId}|${from ?? ''}|${to ?? ''}`;
export const usageList: LoadableSlice<
  PortsStore,
  UsageReport,
  [string, string | undefined, string | undefined]
> = createLoadableSlice(usePortsStore, {
  place: inMap<PortsStore, UsageReport>('usage'),
  key: usageKey,
  supersede: true,
  fetch: (portId, from, to) =>
    callApi((api) => api.ports.usage(from && to ? { portId, from, to } : { portId })),
});

const receiptsList: LoadableSlice<PortsStore, RotationReceipt[], [string]> = createLoadableSlice(
  usePortsStore,
  {
    place: inMap<PortsStore, RotationReceipt[]>('receipts'),
    key: (portId) => portId,
    fetch: (portId) => callApi((api) => api.ports.receipts({ portId })),
  },
);

const healthSlice: LoadableSlice<PortsStore, PortHealth[], []> = createLoadableSlice(usePortsStore, {
  place: inField<PortsStore, PortHealth[]>('health'),
  fetch: () => callApi((api) => api.ports.health()),
});

const portHealthList: LoadableSlice<PortsStore, PortHealth[], [string]> = createLoadableSlice(usePortsStore, {
  place: inMap<PortsStore, PortHealth[]>('portHealth'),
  key: (portId) => portId,
  fetch: (portId) => callApi((api) => api.ports.health({ portId })),
});

const healthHistoryList: LoadableSlice<PortsStore, PortHealthHistory, [string, HealthRange]> =
  createLoadableSlice(usePortsStore, {
    place: inMap<PortsStore, PortHealthHistory>('healthHistory'),
    key: (portId, range) => `${portId}|${range}`,
    fetch: (portId, range) => callApi((api) => api.ports.healthHistory({ portId, range })),
  });

const schedulesSlice: LoadableSlice<PortsStore, SchedulesView, []> = createLoadableSlice(usePortsStore, {
  place: inField<PortsStore, SchedulesView>('schedules'),
  fetch: () => callApi((api) => api.schedules.list()),
});

const runsList: LoadableSlice<PortsStore, ScheduleRun[], [string]> = createLoadableSlice(usePortsStore, {
  place: inMap<PortsStore, ScheduleRun[]>('scheduleRuns'),
  key: (portId) => portId,
  fetch: (portId) => callApi((api) => api.schedules.runs({ portId })),
});

export const traySlice: LoadableSlice<PortsStore, TrayView, []> = createLoadableSlice(usePortsStore, {
  place: inField<PortsStore, TrayView>('tray'),
  fetch: () => callApi((api) => api.tray.get()),
});
