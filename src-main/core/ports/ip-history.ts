import type { IpHistoryEntry } from '../../api';
import type { IpHistoryRow, RotationReceipt } from '../../../src-shared/contract';

/**
 * Pairs each history entry with the app's receipt for the rotation that assigned it: same IP, and
 * the entry assigned while that rotation was in flight (the service stamps its own time, which
 * lies between the receipt's start and finish, give or take the clocks' skew).
 */
export function mergeReceipts(
  entries: readonly IpHistoryEntry[],
  receipts: readonly RotationReceipt[],
): IpHistoryRow[] {
  const SKEW_MS = 60_000;
  const unused = new Set(receipts);
  return entries.map((entry) => {
    const assignedAt = Date.parse(entry.assignedAt);
    let match: RotationReceipt | null = null;
    for (const receipt of unused) {
      if (receipt.ip !== entry.ip) continue;
      const from = Date.parse(receipt.startedAt) - SKEW_MS;
      const until = Date.parse(receipt.finishedAt) + SKEW_MS;
      if (assignedAt >= from && assignedAt <= until) {
        match = receipt;
        break;
      }
    }
    if (match) unused.delete(match);
    return { ...entry, receipt: match };
  });
}

const CSV_COLUMNS = [
  'ip',
  'assignedAt',
  'releasedAt',
  'trigger',
  'appTrigger',
  'previousIp',
  'sameIp',
  'tookMs',
  'receiptId',
] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The history as CSV (header first, newest first, CRLF line ends as RFC 4180 says). */
export function ipHistoryCsv(rows: readonly IpHistoryRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const receipt = row.receipt;
    lines.push(
      [
        row.ip,
        row.assignedAt,
        row.releasedAt,
        row.trigger,
        receipt?.trigger ?? null,
        receipt?.previousIp ?? null,
        receipt ? receipt.sameIp : null,
        receipt?.tookMs ?? null,
        receipt?.id ?? null,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
