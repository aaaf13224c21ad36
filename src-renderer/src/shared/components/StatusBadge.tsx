import { humanize } from '../format/format';

const TONES: Record<string, string> = {
  active: 'ok',
  credited: 'ok',
  completed: 'ok',
  provisioning: 'info',
  verifying: 'info',
  awaiting_payment: 'info',
  pending: 'info',
  depleted: 'warn',
  expired: 'muted',
  rejected: 'bad',
  failed: 'bad',
};

/** A status word with a colour; unknown statuses (the service may add some) show as they are, neutral. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge--${TONES[status] ?? 'muted'}`}>{humanize(status)}</span>;
}
