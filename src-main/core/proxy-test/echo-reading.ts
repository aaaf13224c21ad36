import type { ProxyExit, ProxyFailureKind } from '../../../src-shared/contract';

/** The sandbox gateway names its refusal in this header (`credentials`, `no_exit`, ...). */
const GATEWAY_ERROR_HEADER = 'x-sandbox-gateway-error';
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^[0-9a-f:]+:[0-9a-f:.]*$/i;

const isIp = (text: string): boolean => IPV4.test(text) || (text.includes(':') && IPV6.test(text));

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The exit an echo answer names. Understands the sandbox gateway's echo (`exit: {ip, country, ...}`)
 * and the common public IP echoes: `{ip}` (ipify, ipinfo), `{query, countryCode, city}` (ip-api),
 * `{origin}` (httpbin), and a bare IP as plain text.
 */
export function readEcho(body: string, headers: Record<string, string | undefined>): ProxyExit | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = null;
  }
  if (json && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    const exit =
      record.exit && typeof record.exit === 'object' ? (record.exit as Record<string, unknown>) : null;
    const source = exit ?? record;
    const ip = text(source.ip) ?? text(record.query) ?? text(record.origin)?.split(',')[0]?.trim() ?? null;
    if (ip && isIp(ip)) {
      const asn = source.asn;
      return {
        ip,
        country: text(source.country_code) ?? text(source.countryCode) ?? text(source.country),
        city: text(source.city),
        asn: typeof asn === 'number' && Number.isSafeInteger(asn) ? asn : null,
        carrier: text(source.carrierName) ?? text(source.carrier) ?? text(source.org),
      };
    }
  }
  const plain = body.trim();
  if (isIp(plain)) return { ip: plain, country: null, city: null, asn: null, carrier: null };
  const header = text(headers['x-sandbox-exit-ip']);
  return header && isIp(header) ? { ip: header, country: null, city: null, asn: null, carrier: null } : null;
}

const decode = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&middot;/g, '·')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The words of a proxy's error page: its heading and first paragraph (the sandbox's, or any HTML page). */
export function readErrorPage(body: string): string | null {
  const heading =
    /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(body)?.[1] ?? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const paragraph = /<p[^>]*>([\s\S]*?)<\/p>/i.exec(body)?.[1];
  const parts = [heading, paragraph].filter((part): part is string => !!part).map(decode);
  if (parts.length > 0) return parts.join(': ').slice(0, 500);
  const plain = body.trim();
  return plain === '' ? null : plain.slice(0, 200);
}

const GATEWAY_KINDS: Readonly<Record<string, ProxyFailureKind>> = {
  credentials: 'credentials',
  no_exit: 'no_exit',
  targeting: 'targeting',
  forbidden: 'forbidden',
  unavailable: 'unavailable',
};

/** What a non-2xx answer from the proxy means; the gateway's header wins over the status. */
export function failureKindOf(status: number, headers: Record<string, string | undefined>): ProxyFailureKind {
  const named = GATEWAY_KINDS[headers[GATEWAY_ERROR_HEADER] ?? ''];
  if (named) return named;
  if (status === 407) return 'credentials';
  if (status === 403) return 'forbidden';
  return 'refused';
}

/** One sentence per kind: what happened and what the user can do. */
export function explainFailure(
  kind: ProxyFailureKind,
  context: { deadlineMs: number; status: number | null },
): string {
  switch (kind) {
    case 'credentials':
      return 'The proxy refused the username or password (407). Check the password: after a reset the old one stops working within 60 seconds.';
    case 'no_exit':
      return 'No exit IP matches this targeting right now: widen it (a state instead of a ZIP, no city or ASN) or try again later.';
    case 'targeting':
      return 'The proxy did not accept the targeting in the username: check the state, city or ZIP against the catalog.';
    case 'forbidden':
      return 'The proxy refused this account: the sub-user is disabled or over its cap, or the subscription has expired or has no traffic left.';
    case 'unavailable':
      return 'The proxy cannot serve this account right now (a port being moved to a new location): try again in a minute.';
    case 'refused':
      return `The proxy refused the request${context.status === null ? '' : ` (${context.status})`}.`;
    case 'unreachable':
      return 'Could not connect to the proxy: check the host and port, and that nothing blocks the connection.';
    case 'timeout':
      return `No answer within ${Math.round(context.deadlineMs / 1000)} seconds: the proxy is slow or not answering. The test was stopped.`;
    case 'tls':
      return 'The secure connection to the echo URL failed through the proxy (the sandbox gateway answers plain http only).';
    case 'echo':
      return `The echo URL answered${context.status === null ? '' : ` ${context.status}`} without an IP address: check the IP-echo URL in Settings.`;
    case 'lookup':
      return 'The proxy credentials could not be read from the service.';
  }
}
