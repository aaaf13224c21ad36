import type { ComponentType } from 'react';
import type { LocalProxyUpstream, LocalProxyView } from '../../../../src-shared/contract';
import { CopyButton } from '../../shared/components/CopyButton';
import { Time } from '../../shared/components/Time';
import { formatBytes } from '../../shared/format/format';
import type { DataColumn, DataFilter } from '../../shared/table/DataTable';
import { LocalProxyHealthBadge, localProxyHealthText } from './LocalProxyHealthBadge';
import { LocalProxyState, localProxyStateText } from './LocalProxyState';

/**
 * The Local proxies table's columns and filters. A column is one entry of the array: a new one (a
 * health badge, say) is added here without touching the screen.
 */
export interface LocalProxyColumnContext {
  /** The port or subscription a local proxy forwards to, as a link (handed in by the app layer). */
  upstreamLink: ComponentType<{ upstream: LocalProxyUpstream }>;
  /** The row's actions (Start/Stop, Details): the screen's, it holds their state. */
  actions: ComponentType<{ proxy: LocalProxyView }>;
}

/** The upstream's kind as the filter and the CSV name it. */
const upstreamKindText = (upstream: LocalProxyUpstream) =>
  upstream.kind === 'port' ? 'Port' : 'Subscription';

/** The upstream as text: its kind and id (the CSV, the search, the sort). */
const upstreamText = (upstream: LocalProxyUpstream) =>
  upstream.kind === 'port' ? `port ${upstream.portId}` : `subscription ${upstream.subscriptionId}`;

const numeric = (
  id: string,
  header: string,
  value: (proxy: LocalProxyView) => number,
  options: { show?: (n: number) => string; hiddenByDefault?: boolean } = {},
): DataColumn<LocalProxyView> => ({
  id,
  header,
  className: 'numeric col-local-proxy-number',
  hiddenByDefault: options.hiddenByDefault,
  cell: (proxy) => (options.show ?? String)(value(proxy)),
  sortValue: value,
  text: (proxy) => String(value(proxy)),
});

export function localProxyColumns({
  upstreamLink: UpstreamLink,
  actions: Actions,
}: LocalProxyColumnContext): DataColumn<LocalProxyView>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      cell: (proxy) => proxy.label,
      sortValue: (proxy) => proxy.label,
    },
    {
      id: 'state',
      header: 'State',
      className: 'col-local-proxy-state',
      cell: (proxy) => <LocalProxyState proxy={proxy} />,
      sortValue: (proxy) => localProxyStateText(proxy.state),
    },
    {
      id: 'health',
      header: 'Health',
      className: 'col-local-proxy-health',
      cell: (proxy) => <LocalProxyHealthBadge proxy={proxy} />,
      sortValue: (proxy) => localProxyHealthText(proxy),
      text: (proxy) => localProxyHealthText(proxy),
    },
    {
      id: 'address',
      header: 'Address',
      className: 'col-local-proxy-address',
      cell: (proxy) => (
        <>
          <code>{proxy.url}</code> <CopyButton text={proxy.url} what={`address of ${proxy.label}`} />
        </>
      ),
      sortValue: (proxy) => proxy.listen.port,
      text: (proxy) => proxy.url,
    },
    {
      id: 'upstream',
      header: 'Forwards to',
      cell: (proxy) => <UpstreamLink upstream={proxy.upstream} />,
      sortValue: (proxy) => upstreamText(proxy.upstream),
    },
    numeric('connections', 'Connections', (proxy) => proxy.stats.openConnections),
    numeric('requests', 'Requests', (proxy) => proxy.stats.requests),
    // Shown in the detail; in the table on request (Columns), so the row fits the window.
    numeric('sent', 'Sent', (proxy) => proxy.stats.bytesUp, { show: formatBytes, hiddenByDefault: true }),
    numeric('received', 'Received', (proxy) => proxy.stats.bytesDown, {
      show: formatBytes,
      hiddenByDefault: true,
    }),
    numeric('failed', 'Failed', (proxy) => proxy.stats.failures),
    {
      id: 'last-error',
      header: 'Last upstream error',
      cell: (proxy) =>
        proxy.lastError ? (
          <>
            <Time iso={proxy.lastError.at} relative />
            <div className="muted small cell-detail">{proxy.lastError.message}</div>
          </>
        ) : (
          <span className="muted">—</span>
        ),
      sortValue: (proxy) => proxy.lastError?.at ?? null,
      text: (proxy) => (proxy.lastError ? `${proxy.lastError.at} ${proxy.lastError.message}` : ''),
    },
    {
      id: 'actions',
      header: 'Actions',
      alwaysShown: true,
      noExport: true,
      className: 'col-local-proxy-actions',
      cell: (proxy) => <Actions proxy={proxy} />,
    },
  ];
}

export const LOCAL_PROXY_FILTERS: readonly DataFilter<LocalProxyView>[] = [
  {
    id: 'state',
    label: 'State',
    value: (proxy) => localProxyStateText(proxy.state),
    order: ['Running', 'Stopped', 'Not listening', 'Runs in the other process'],
  },
  {
    id: 'health',
    label: 'Health',
    value: localProxyHealthText,
    order: ['Down', 'Checks pass', 'Not checked yet'],
  },
  { id: 'upstream', label: 'Forwards to', value: (proxy) => upstreamKindText(proxy.upstream) },
];

/** What the search box matches: name, address, upstream and its targeting, state, last error. */
export const localProxySearchText = (proxy: LocalProxyView) =>
  [
    proxy.label,
    proxy.url,
    upstreamText(proxy.upstream),
    proxy.upstream.kind === 'subscription' ? Object.values(proxy.upstream.targeting ?? {}).join(' ') : '',
    localProxyStateText(proxy.state),
    proxy.lastError?.message ?? '',
  ].join(' ');
