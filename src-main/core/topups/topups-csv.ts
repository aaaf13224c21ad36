import { describeRejection, type TopUp } from '../../../src-shared/api-types';

const COLUMNS = [
  'id',
  'createdAt',
  'status',
  'final',
  'amountUsd',
  'coin',
  'network',
  'amountCrypto',
  'rate',
  'address',
  'txid',
  'confirmations',
  'confirmationsRequired',
  'amountReceivedCrypto',
  'creditedUsd',
  'creditedAt',
  'rejection',
  'purchasePlan',
  'purchaseQuantity',
  'purchaseStatus',
  'purchaseOrderId',
] as const;

/** RFC 4180: quoted when needed; a leading =, +, - or @ is prefixed so spreadsheets do not run it. */
function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Top-ups as CSV text; amounts are the service's decimal strings, as they are. */
export function topUpsCsv(topUps: readonly TopUp[]): string {
  const lines = [COLUMNS.join(',')];
  for (const t of topUps) {
    const rejection = describeRejection(t.rejection);
    lines.push(
      [
        t.id,
        t.createdAt,
        t.status,
        t.final,
        t.amountUsd,
        t.coin,
        t.network,
        t.amountCrypto,
        t.rate,
        t.address,
        t.txid,
        t.confirmations,
        t.confirmationsRequired,
        t.amountReceivedCrypto,
        t.creditedUsd,
        t.creditedAt,
        rejection ? [rejection.reason, rejection.message].filter(Boolean).join(': ') : null,
        t.purchase?.planName ?? null,
        t.purchase?.quantity ?? null,
        t.purchase?.status ?? null,
        t.purchase?.orderId ?? null,
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
