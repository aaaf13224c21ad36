/** Text files built from subscription data: the usage CSV (RFC 4180) and credential lines. */
import type { ProxyEndpoint, SubUser, UsageReport } from '../../../src-shared/api-types';
import { type ProxyFormat, formatProxyLine, portForFormat } from './proxy-string';

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function field(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function row(values: (string | number)[]): string {
  return `${values.map(field).join(',')}\r\n`;
}

/** One row per day (`date,bytes,requests`), a total row, then `country,bytes` rows after a blank line. */
export function usageCsv(report: UsageReport): string {
  let csv = row(['date', 'bytes', 'requests']);
  for (const point of report.points) csv += row([point.date, point.bytes, point.requests]);
  csv += row(['total', report.totalBytes, report.totalRequests]);
  csv += '\r\n';
  csv += row(['country', 'bytes']);
  for (const entry of report.byCountry) csv += row([entry.country, entry.bytes]);
  return csv;
}

/** One line per sub-user in the chosen format, the SOCKS port for SOCKS lines and the HTTP port otherwise. */
export function credentialsText(
  endpoint: ProxyEndpoint,
  subUsers: readonly SubUser[],
  format: ProxyFormat,
): string {
  const port = portForFormat(endpoint, format, format === 'socks5_url' ? 'socks5' : 'http');
  return subUsers
    .map(
      (subUser) =>
        `${formatProxyLine({ host: endpoint.host, port, username: subUser.username, password: subUser.password }, format)}\n`,
    )
    .join('');
}
