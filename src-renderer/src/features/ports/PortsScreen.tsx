import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import type { PortRow, PortSchedule, SchedulesView } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { DataTable, type DataColumn } from '../../shared/components/DataTable';
import { ListAge } from '../../shared/components/ListAge';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { TestAllResults } from '../proxy-test/TestAllResults';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import type { Loadable } from '../../shared/loadable';
import { NextRun } from './NextRun';
import { PortDetail } from './PortDetail';
import { type PlaceNames, usePlaceNames } from './place-names';
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

function portColumns(places: PlaceNames, schedules: ScheduleIndex): DataColumn<PortRow>[] {
  return [
    {
      id: 'label',
      header: 'Port',
      rowHeader: true,
      sortValue: (port) => port.label || port.id,
      cell: (port) => (
        <>
          <a href={portHref(port.id)}>{port.label || <span className="muted">(no label)</span>}</a>
          <div className="muted small cell-detail">
            <code>{port.id}</code>
          </div>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortValue: (port) => port.status,
      cell: (port) => <StatusBadge status={port.status} />,
    },
    {
      id: 'location',
      header: 'Location',
      sortValue: (port) => places.location(port.country, port.city),
      cell: (port) => places.location(port.country, port.city),
    },
    {
      id: 'carrier',
      header: 'Carrier',
      sortValue: (port) => port.carrierName,
      cell: (port) => (
        <>
          {port.carrierName} <span className="badge">{port.networkType}</span>
        </>
      ),
    },
    {
      id: 'ip',
      header: 'Current IP',
      sortValue: (port) => -Date.parse(port.ipChangedAt),
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
      sortValue: (port) => rotationText(port),
      cell: (port) => rotationText(port),
    },
    {
      id: 'nextRun',
      header: 'Next run',
      sortValue: (port) => nextRunSortValue(schedules, port.id),
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
      sortValue: (port) => Date.parse(port.expiresAt),
      cell: (port) => <Time iso={port.expiresAt} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (port) => (
        <>
          <RotateButton portId={port.id} label={port.label || port.id} compact />{' '}
          <TestProxyButton target={{ kind: 'port', portId: port.id }} label={port.label || port.id} />
        </>
      ),
    },
  ];
}

function PortsTable({ ports, places }: { ports: PortRow[]; places: PlaceNames }) {
  const selected = usePortsStore((state) => state.selected);
  const setSelected = usePortsStore((state) => state.setSelected);
  const rotateMany = usePortsStore((state) => state.rotateMany);
  const schedulesView = usePortsStore((state) => state.schedules.data);
  const schedules = useMemo(() => indexSchedules(schedulesView), [schedulesView]);
  const [scheduling, setScheduling] = useState(false);
  const columns = useMemo(() => portColumns(places, schedules), [places, schedules]);
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
    () => (selected.size ? ports.filter((port) => selected.has(port.id)).map((port) => port.id) : []),
    [ports, selected],
  );
  return (
    <>
      {scheduling && present.length ? (
        <section className="panel" aria-labelledby="group-schedule-heading">
          <h2 id="group-schedule-heading">Schedule {present.length} selected ports</h2>
          <p className="muted small">
            One schedule for the group: the ports rotate one after another, the stagger apart, never all at
            once. It replaces each port&apos;s own schedule.
          </p>
          <ScheduleEditor key={present.join(',')} portIds={present} onDone={() => setScheduling(false)} />
          <button type="button" className="button button--quiet" onClick={() => setScheduling(false)}>
            Close
          </button>
        </section>
      ) : null}
      <DataTable
        label="Mobile ports"
        rows={ports}
        rowKey={portKey}
        columns={columns}
        searchText={searchText}
        searchLabel="Search ports"
        selected={selected}
        onSelectedChange={setSelected}
        rowHeight={58}
        // Rows here are heavy (rotate and test buttons, two times, a countdown): a few beyond the view.
        overscan={4}
        toolbar={
          present.length ? (
            <>
              <button type="button" className="button" onClick={() => void rotateMany(present)}>
                Rotate {present.length} selected
              </button>
              <button type="button" className="button" onClick={() => setScheduling(true)}>
                Schedule {present.length} selected…
              </button>
              <button type="button" className="button button--quiet" onClick={() => setSelected(new Set())}>
                Clear selection
              </button>
            </>
          ) : null
        }
      />
    </>
  );
}

/** The test-all targets, rebuilt only when the list changes (not on every store update). */
function PortsTestAll({ ports }: { ports: PortRow[] }) {
  const targets = useMemo(
    () =>
      ports.map((port) => ({
        target: { kind: 'port' as const, portId: port.id },
        label: port.label || port.id,
      })),
    [ports],
  );
  return <TestAll what="ports" targets={targets} />;
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
  const { loadable, refresh } = usePorts();
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
      title="Ports"
      description="Dedicated 4G/5G mobile ports: their exit IP, location and rotation."
      actions={
        <>
          <ListAge age={age} />
          <PauseSchedulesToggle />
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
          <>
            <PortsTable ports={ports} places={places} />
            <PortsTestAll ports={ports} />
          </>
        )}
      </AsyncContent>
    </Screen>
  );
}
