import type { LocalProxyView } from '../../../../src-shared/contract';

const STATUS = {
  up: { tone: 'ok', text: 'Checks pass' },
  down: { tone: 'bad', text: 'Down' },
  unknown: { tone: 'muted', text: 'Not checked yet' },
} as const;

/** The status in words (the table's sort, filter and CSV); a proxy never checked is "Not checked yet". */
export const localProxyHealthText = (proxy: Pick<LocalProxyView, 'health'>): string =>
  STATUS[proxy.health?.status ?? 'unknown'].text;

/**
 * What the health checks through a local proxy's own address say, as a badge (nothing before its
 * first check); a down one names the failed checks and the last error in its label.
 */
export function LocalProxyHealthBadge({ proxy }: { proxy: Pick<LocalProxyView, 'health' | 'label'> }) {
  const { health } = proxy;
  if (!health) return null;
  const { tone, text } = STATUS[health.status];
  const error = health.lastCheck && !health.lastCheck.ok ? health.lastCheck.error : null;
  const detail =
    health.status === 'down'
      ? `${health.failuresInARow} health checks in a row failed${error ? `: ${error}` : ''}`
      : null;
  return (
    <span
      className={`badge badge--${tone}`}
      aria-label={`Health of ${proxy.label}: ${text}${detail ? `, ${detail}` : ''}`}
      title={detail ?? undefined}
    >
      {text}
    </span>
  );
}
