import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import './ports-table.css';
import type { PortHealth, PortRow, PortSchedule, SchedulesView } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { DataTable, type DataColumn, type DataFilter } from '../../shared/table/DataTable';
import { BulkActions, type BulkAction } from '../../shared/bulk/BulkActions';
import type { BulkItem } from '../../shared/bulk/bulk-run';
import { useBulkStore } from '../../shared/bulk/bulk-store';
import { humanize } from '../../shared/format/format';
import { useNow } from '../../shared/ticker';
import { EXPIRY_WINDOWS, expiryWindow } from '../../shared/table/table-model';
import { useAppStore } from '../app/app-store';
import { targetKey, useProxyTestStore } from '../proxy-test/proxy-test-store';
import { ListAge } from '../../shared/components/ListAge';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { TestAllButton, TestAllResults } from '../proxy-test/TestAllResults';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import type { Loadable } from '../../shared/loadable';
import { BulkRelocatePanel } from './BulkRelocatePanel';
import { NextRun } from './NextRun';
import { PortDetail } from './PortDetail';
import { type PlaceNames, usePlaceNames } from '../catalog/place-names';
import { usePorts } from './ports-hooks';
import { portHref, useOpenPortId } from './port-route';
import { usePortsStore } from './ports-store';
import { RotateButton } from './RotatePanel';
import { PauseSchedulesToggle, ScheduleEditor } from './SchedulePanel';

/** `TestAllResults` walks every target on each render: only when its own inputs change. */
const TestAll = memo(TestAllResults);

interface ScheduleIndex {
  paused: boolean;
  byPort: ReadonlyMap<string, PortSchedule>;
}

/** One lookup per row instead of a search through every schedule. */
function indexSchedules(view: SchedulesView | null): ScheduleIndex {
  return {
    paused: view?.paused ?? false,
    byPort: new Map((view?.schedules ?? []).map((schedule) => [schedule.portId, schedule])),
  };
}

type HealthIndex = ReadonlyMap<string, PortHealth>;

/** One lookup per row, as for the schedules: the rows themselves stay as the list read them. */
const indexHealth = (health: readonly PortHealth[] | null): HealthIndex =>
  new Map((health ?? []).map((entry) => [entry.portId, entry]));

const HEALTH_TEXT: Record<PortHealth['status'], { text: string; badge: string }> = {
  up: { text: 'Up', badge: 'badge--ok' },
  down: { text: 'Down', badge: 'badge--bad' },
  unknown: { text: 'Unknown', badge: 'badge--muted' },
};
const HEALTH_ORDER = ['Up', 'Down', 'Unknown'];
const HEALTH_RANK: Record<PortHealth['status'], number> = { up: 0, down: 1, unknown: 2 };

/** A port without scores (not checked yet, or the scores not read) is `Unknown`. */
const healthText = (health: HealthIndex, portId: string) =>
  HEALTH_TEXT[health.get(portId)?.status ?? 'unknown'].text;

const uptime24h = (health: HealthIndex, portId: string) => health.get(portId)?.uptime24h ?? null;

const uptimeText = (ratio: number | null) => (ratio === null ? '' : `${(ratio * 100).toFixed(1)} %`);

function nextRunSortValue(schedules: ScheduleIndex, portId: string): number | null {
  const at = schedules.byPort.get(portId)?.nextRunAt;
  return at && !schedules.paused ? Date.parse(at) : null;
}

export function rotationText(port: Pick<PortRow, 'rotation'>): string {
  if (port.rotation.mode === 'manual') return 'Manual';
  if (port.rotation.mode === 'interval')
    return port.rotation.intervalMinutes === null
      ? 'On a timer'
      : `Every ${port.rotation.intervalMinutes} min`;
  return port.rotation.mode;
}

const autoRenewText = (port: Pick<PortRow, 'autoRenew'>) => (port.autoRenew ? 'On' : 'Off');

/** A port as lists and the summary name it: its label, or its id when it has none. */
const portName = (port: Pick<PortRow, 'id' | 'label'>) => port.label || port.id;

function portColumns(
  places: PlaceNames,
  schedules: ScheduleIndex,
  health: HealthIndex,
): DataColumn<PortRow>[] {
  return [
    {
      id: 'label',
      header: 'Port',
      rowHeader: true,
      className: 'col-port',
      sortValue: (port) => port.label || port.id,
      text: (port) => `${port.label || '(no label)'} · ${port.id}`,
      cell: (port) => (
        <>
          <a href={portHref(port.id)} tabIndex={-1}>
            {port.label || <span className="muted">(no label)</span>}
          </a>
          <div className="muted small cell-detail">
            <code>{port.id}</code>
          </div>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      className: 'col-status',
      sortValue: (port) => port.status,
      text: (port) => humanize(port.status),
      cell: (port) => <StatusBadge status={port.status} />,
    },
    {
      id: 'health',
      header: 'Health',
      className: 'col-health',
      // Up, Down, Unknown: in that order ascending.
      sortValue: (port) => HEALTH_RANK[health.get(port.id)?.status ?? 'unknown'],
      text: (port) => healthText(health, port.id),
      cell: (port) => {
        const shown = HEALTH_TEXT[health.get(port.id)?.status ?? 'unknown'];
        return <span className={`badge ${shown.badge}`}>{shown.text}</span>;
      },
    },
    {
      id: 'uptime',
      header: 'Uptime 24 h',
      className: 'col-uptime',
      hiddenByDefault: true,
      sortValue: (port) => uptime24h(health, port.id),
      text: (port) => uptimeText(uptime24h(health, port.id)),
      cell: (port) => uptimeText(uptime24h(health, port.id)),
    },
    {
      id: 'location',
      header: 'Location',
      className: 'col-location',
      sortValue: (port) => places.location(port.country, port.city),
      cell: (port) => places.location(port.country, port.city),
    },
    {
      id: 'carrier',
      header: 'Carrier',
      className: 'col-carrier',
      sortValue: (port) => port.carrierName,
      text: (port) => `${port.carrierName} ${port.networkType}`,
      cell: (port) => (
        <>
          {port.carrierName} <span className="badge">{port.networkType}</span>
        </>
      ),
    },
    {
      id: 'ip',
      header: 'Current IP',
      className: 'col-ip',
      sortValue: (port) => -Date.parse(port.ipChangedAt),
      text: (port) => port.currentIp,
      cell: (port) => (
        <>
          <code>{port.currentIp}</code>
          <div className="muted small cell-detail">
            changed <Time iso={port.ipChangedAt} relative />
          </div>
        </>
      ),
    },
    {
      id: 'rotation',
      header: 'Rotation',
      className: 'col-rotation',
      sortValue: (port) => rotationText(port),
      cell: (port) => rotationText(port),
    },
    {
      id: 'nextRun',
      header: 'Next run',
      className: 'col-next-run',
      sortValue: (port) => nextRunSortValue(schedules, port.id),
      text: (port) => schedules.byPort.get(port.id)?.nextRunAt ?? '',
      cell: (port) => {
        const schedule = schedules.byPort.get(port.id);
        return schedule ? (
          <NextRun schedule={schedule} paused={schedules.paused} />
        ) : (
          <span className="muted">—</span>
        );
      },
    },
    {
      id: 'expires',
      header: 'Expires',
      className: 'col-expires',
      sortValue: (port) => Date.parse(port.expiresAt),
      text: (port) => port.expiresAt,
      cell: (port) => <Time iso={port.expiresAt} />,
    },
    {
      id: 'renew',
      header: 'Auto-renew',
      className: 'col-port-renew',
      // The filter answers "which ones" at this width; the column is one click away in the chooser.
      hiddenByDefault: true,
      sortValue: autoRenewText,
      cell: autoRenewText,
    },
    {
      id: 'actions',
      header: 'Actions',
      className: 'col-actions',
      alwaysShown: true,
      noExport: true,
      cell: (port) => (
        <div className="row-actions">
          <RotateButton portId={port.id} label={portName(port)} compact />{' '}
          <TestProxyButton
            target={{ kind: 'port', portId: port.id }}
            label={portName(port)}
            showResult={false}
          />
        </div>
      ),
    },
  ];
}

function portFilters(places: PlaceNames, now: number, health: HealthIndex): DataFilter<PortRow>[] {
  return [
    { id: 'status', label: 'Status', value: (port) => humanize(port.status) },
    { id: 'health', label: 'Health', value: (port) => healthText(health, port.id), order: HEALTH_ORDER },
    { id: 'country', label: 'Country', value: (port) => places.country(port.country) },
    { id: 'carrier', label: 'Carrier', value: (port) => port.carrierName },
    { id: 'network', label: 'Network', value: (port) => port.networkType },
    {
      id: 'rotation',
      label: 'Rotation',
      value: (port) =>
        port.rotation.mode === 'manual'
          ? 'Manual'
          : port.rotation.mode === 'interval'
            ? 'On a timer'
            : humanize(port.rotation.mode),
    },
    {
      id: 'expiry',
      label: 'Expires',
      value: (port) => expiryWindow(port.expiresAt, now),
      order: EXPIRY_WINDOWS,
    },
    { id: 'renew', label: 'Auto-renew', value: autoRenewText, order: ['On', 'Off'] },
  ];
}

const HOUR_MS = 3_600_000;

/** Rotations go a few ports per call and two calls at once: main paces them and waits out each cooldown. */
const ROTATE_CHUNK = 5;
const ROTATE_CALLS_AT_ONCE = 2;

/** "3 waiting for a cooldown": the ports sent whose last rotation's cooldown has not ended. */
function useDescribeRotationsInFlight() {
  const rotations = usePortsStore((state) => state.rotations);
  return useCallback(
    (ids: readonly string[]) => {
      const now = Date.now();
      let rotating = 0;
      let cooling = 0;
      for (const id of ids) {
        const state = rotations[id];
        if (state?.phase === 'rotating') rotating += 1;
        else if (state?.receipt && Date.parse(state.receipt.nextRotationAvailableAt) > now) cooling += 1;
      }
      return `${rotating} rotating · ${cooling} waiting for a cooldown · ${ids.length - rotating - cooling} waiting their turn`;
    },
    [rotations],
  );
}

function PortsTable({ ports, places }: { ports: PortRow[]; places: PlaceNames }) {
  const selected = usePortsStore((state) => state.selected);
  const setSelected = usePortsStore((state) => state.setSelected);
  const rotateMany = usePortsStore((state) => state.rotateMany);
  const update = usePortsStore((state) => state.update);
  const schedulesView = usePortsStore((state) => state.schedules.data);
  const schedules = useMemo(() => indexSchedules(schedulesView), [schedulesView]);
  const testMany = useProxyTestStore((state) => state.testMany);
  const startBulk = useBulkStore((state) => state.start);
  const saveTextFile = useAppStore((state) => state.saveTextFile);
  const running = useBulkStore((state) => state.runs.ports?.progress.running ?? false);
  const bulkShown = useBulkStore((state) => state.runs.ports !== undefined);
  const describeRotations = useDescribeRotationsInFlight();
  // Cooldowns and turns are a rotation's; another run's in-flight items are just "under way".
  const rotationRun = useBulkStore((state) => state.runs.ports?.action === 'Rotate');
  const describeInFlight = rotationRun ? describeRotations : undefined;
  const [scheduling, setScheduling] = useState<string[] | null>(null);
  const [relocating, setRelocating] = useState<BulkItem[] | null>(null);
  const healthScores = usePortsStore((state) => state.health.data);
  const health = useMemo(() => indexHealth(healthScores), [healthScores]);
  const columns = useMemo(() => portColumns(places, schedules, health), [places, schedules, health]);
  // Expiry windows are read against the hour of the last render: close enough for windows of days.
  const hour = Math.floor(useNow(false) / HOUR_MS);
  const filters = useMemo(() => portFilters(places, hour * HOUR_MS, health), [places, hour, health]);
  const searchText = useCallback(
    (port: PortRow) =>
      [
        port.label,
        port.id,
        port.status,
        port.currentIp,
        port.carrierName,
        port.networkType,
        places.location(port.country, port.city),
        port.country,
      ].join(' '),
    [places],
  );
  // A selection may hold ports that left the list (another account's refresh): count only present ones.
  const present = useMemo(
    () => (selected.size ? ports.filter((port) => selected.has(port.id)) : []),
    [ports, selected],
  );
  const actions = useMemo<BulkAction[]>(
    () => [
      {
        id: 'rotate',
        label: 'Rotate',
        detail:
          'A few ports at a time; a port still in its cooldown waits for it. You can cancel the ones not started.',
        run: (items) =>
          startBulk('ports', {
            action: 'Rotate',
            items,
            chunkSize: ROTATE_CHUNK,
            concurrency: ROTATE_CALLS_AT_ONCE,
            runChunk: async (ids) =>
              (await rotateMany(ids)).map((outcome) =>
                outcome.ok
                  ? { id: outcome.portId, ok: true as const }
                  : { id: outcome.portId, ok: false as const, reason: outcome.error.message },
              ),
          }),
      },
      {
        id: 'test',
        label: 'Test',
        detail: 'One request through each port; the results are listed under the table.',
        run: (items) =>
          startBulk('ports', {
            action: 'Test',
            items,
            chunkSize: 20,
            concurrency: 1,
            runChunk: async (ids) => {
              const targets = ids.map((portId) => ({ kind: 'port' as const, portId }));
              await testMany(targets);
              const entries = useProxyTestStore.getState().entries;
              return targets.map((target) => {
                const entry = entries[targetKey(target)];
                return entry?.result?.ok
                  ? { id: target.portId, ok: true as const }
                  : {
                      id: target.portId,
                      ok: false as const,
                      reason: entry?.error?.message ?? entry?.result?.failure?.message ?? 'Not tested',
                    };
              });
            },
          }),
      },
      ...([true, false] as const).map((on): BulkAction => ({
        id: on ? 'renew-on' : 'renew-off',
        label: on ? 'Auto-renew on' : 'Auto-renew off',
        detail: on
          ? 'Each port renews at its expiry, charged to the account balance.'
          : 'Each port expires at its end date unless renewed by hand.',
        run: (items) =>
          startBulk('ports', {
            action: on ? 'Turn auto-renew on' : 'Turn auto-renew off',
            items,
            chunkSize: 4,
            concurrency: 1,
            runChunk: (ids) =>
              Promise.all(
                ids.map(async (portId) => {
                  const result = await update(portId, { autoRenew: on });
                  return result.ok
                    ? { id: portId, ok: true as const }
                    : { id: portId, ok: false as const, reason: result.error.message };
                }),
              ),
          }),
      })),
    ],
    [rotateMany, startBulk, testMany, update],
  );
  return (
    <>
      {scheduling?.length ? (
        <section className="panel" aria-labelledby="group-schedule-heading">
          <h2 id="group-schedule-heading">Schedule {scheduling.length} ports</h2>
          <p className="muted small">
            One schedule for the group: the ports rotate one after another, the stagger apart, never all at
            once. It replaces each port&apos;s own schedule.
          </p>
          <ScheduleEditor
            key={scheduling.join(',')}
            portIds={scheduling}
            onDone={() => setScheduling(null)}
          />
          <button type="button" className="button button--quiet" onClick={() => setScheduling(null)}>
            Close
          </button>
        </section>
      ) : null}
      {relocating?.length ? (
        <BulkRelocatePanel
          key={relocating.map((item) => item.id).join(',')}
          items={relocating}
          ports={ports}
          onClose={() => setRelocating(null)}
        />
      ) : null}
      <DataTable
        label="Mobile ports"
        listId="ports"
        rows={ports}
        rowKey={portKey}
        columns={columns}
        filters={filters}
        searchText={searchText}
        searchLabel="Search ports"
        selected={selected}
        onSelectedChange={setSelected}
        onOpen={openPort}
        exportCsv={{ fileName: 'ports', save: saveTextFile }}
        rowName={portName}
        rowHeight={52}
        // Rows here are heavy (rotate and test buttons, two times, a countdown): a few beyond the view.
        overscan={4}
        tools={<TestAllButton what="ports" targets={() => testTargets(ports)} />}
        toolbar={(shown) => {
          const bySelection = present.length > 0;
          const targets = bySelection ? present : shown.length < ports.length ? shown : [];
          const items = targets.map((port) => ({ id: port.id, name: portName(port) }));
          if (!items.length && !running && !bulkShown) return null;
          return (
            <BulkActions
              listId="ports"
              items={items}
              scope={bySelection ? 'selected' : 'shown'}
              what="ports"
              actions={actions}
              describeInFlight={describeInFlight}
            >
              {items.length ? (
                <button
                  type="button"
                  className="button button--small"
                  disabled={running}
                  onClick={() => setScheduling(items.map((item) => item.id))}
                >
                  Schedule…{' '}
                  <span className="visually-hidden">
                    {items.length} {bySelection ? 'selected' : 'shown'} ports
                  </span>
                </button>
              ) : null}
              {items.length ? (
                <button
                  type="button"
                  className="button button--small"
                  disabled={running}
                  onClick={() => setRelocating(items)}
                >
                  Relocate…{' '}
                  <span className="visually-hidden">
                    {items.length} {bySelection ? 'selected' : 'shown'} ports
                  </span>
                </button>
              ) : null}
              {bySelection ? (
                <button
                  type="button"
                  className="button button--small button--quiet"
                  onClick={() => setSelected(new Set())}
                >
                  Clear selection
                </button>
              ) : null}
            </BulkActions>
          );
        }}
      />
    </>
  );
}

const openPort = (port: PortRow) => {
  window.location.hash = portHref(port.id);
};

const testTargets = (ports: readonly PortRow[]) =>
  ports.map((port) => ({
    target: { kind: 'port' as const, portId: port.id },
    label: portName(port),
    href: portHref(port.id),
  }));

/** The proxy test results beside the list (not inside its rows), rebuilt only when the list changes. */
function PortsTestResults({ ports }: { ports: PortRow[] }) {
  const targets = useMemo(() => testTargets(ports), [ports]);
  return <TestAll what="ports" targets={targets} withButton={false} />;
}

const portKey = (port: PortRow) => port.id;

/** A port's URL before the list is read, or of a port this account does not have. */
function MissingPort({
  portId,
  loadable,
  onRetry,
}: {
  portId: string;
  loadable: Loadable<PortRow[]> | undefined;
  onRetry: () => void;
}) {
  return (
    <Screen title="Port" description={<a href={portHref(null)}>← All ports</a>}>
      <AsyncContent loadable={loadable} what="ports" onRetry={onRetry} isEmpty={() => false}>
        {() => (
          <p>
            This account has no port <code>{portId}</code>. It may have been removed, or the link belongs to
            another profile.
          </p>
        )}
      </AsyncContent>
    </Screen>
  );
}

const NO_PORTS: PortRow[] = [];

/**
 * A port's detail: the whole port (`ports:get`: credentials, plan) read as it opens; the list's row
 * (already on screen) is not enough for the tabs.
 */
function OpenPort({ row }: { row: PortRow }) {
  const detail = usePortsStore((state) => state.details[row.id]);
  const loadDetail = usePortsStore((state) => state.loadDetail);
  useEffect(() => {
    void loadDetail(row.id);
  }, [loadDetail, row.id]);
  if (detail?.data) return <PortDetail key={row.id} port={detail.data} />;
  return (
    <Screen title={row.label || row.id} description={<a href={portHref(null)}>← All ports</a>}>
      <AsyncContent
        loadable={detail}
        what="port"
        onRetry={() => void loadDetail(row.id, true)}
        isEmpty={() => false}
      >
        {() => null}
      </AsyncContent>
    </Screen>
  );
}

export function PortsScreen() {
  // Asked for as the screen opens, before the ports (effects run in order): main answers schedules
  // from its own memory, so they land with or before the ports and the first rows already have their
  // next runs. An answer after the ports re-renders every row on screen (a second, cold commit: 36 ms
  // of the list benchmark's cold click).
  const loadSchedules = usePortsStore((state) => state.loadSchedules);
  useEffect(() => {
    void loadSchedules();
  }, [loadSchedules]);
  // The health column's scores: every port's in one call (`ports:health`), read again with Refresh.
  const loadHealth = usePortsStore((state) => state.loadHealth);
  useEffect(() => {
    void loadHealth();
  }, [loadHealth]);
  const { loadable, refresh: refreshPorts } = usePorts();
  const refresh = () => {
    refreshPorts();
    void loadHealth(true);
  };
  const age = usePortsStore((state) => state.portsAge);
  const ports = loadable?.data ?? NO_PORTS;
  const places = usePlaceNames(useMemo(() => ports.map((port) => port.country), [ports]));
  const openPortId = useOpenPortId();
  if (openPortId !== null) {
    const openPort = loadable?.data?.find((port) => port.id === openPortId);
    if (openPort) return <OpenPort key={openPort.id} row={openPort} />;
    return <MissingPort portId={openPortId} loadable={loadable} onRetry={refresh} />;
  }
  return (
    <Screen
      fill
      title="Ports"
      description="Dedicated 4G/5G mobile ports: their exit IP, location and rotation."
      actions={
        <>
          <ListAge age={age} />
          <PauseSchedulesToggle brief />
          <RefreshButton onRefresh={refresh} busy={loadable?.status === 'loading'} what="ports" />
        </>
      }
    >
      <AsyncContent
        loadable={loadable}
        what="ports"
        onRetry={refresh}
        empty={<p>This account has no mobile ports yet.</p>}
      >
        {(ports) => (
          <div className="fill-column">
            <PortsTable ports={ports} places={places} />
            <PortsTestResults ports={ports} />
          </div>
        )}
      </AsyncContent>
    </Screen>
  );
}
