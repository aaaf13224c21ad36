import type { RefusalKind } from './gateway-accounts';

/** The HTTP answer to each kind of refusal (the spec: the gateway answers with an error page). */
export const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = {
  credentials: 407,
  forbidden: 403,
  unavailable: 503,
  targeting: 400,
  no_exit: 502,
};

/**
 * SOCKS5 reply codes (RFC 1928 section 6) for refusals after a successful RFC 1929 login; wrong
 * credentials fail the login itself (status 0x01).
 */
export const REFUSAL_SOCKS_REPLY: Readonly<Record<Exclude<RefusalKind, 'credentials'>, number>> = {
  /** Connection not allowed by ruleset: disabled sub-user, cap reached, expired, no traffic left. */
  forbidden: 0x02,
  /** Network unreachable: a port whose modem is being moved (provisioning). */
  unavailable: 0x03,
  /** Host unreachable: targeting that is malformed or that no exit IP matches. */
  targeting: 0x04,
  no_exit: 0x04,
};

/** The realm of `Proxy-Authenticate`. */
export const PROXY_REALM = 'Proxy Manager sandbox gateway';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A small, self-contained HTML error page (what a browser shows when the proxy refuses). */
export function errorPage(status: number, title: string, message: string, code: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${status} ${escapeHtml(title)}</title></head>`,
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    `<p><small>Proxy Manager sandbox gateway &middot; ${status} &middot; ${escapeHtml(code)}</small></p>`,
    '</body></html>',
    '',
  ].join('\n');
}
