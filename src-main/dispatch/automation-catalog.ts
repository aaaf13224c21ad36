import { type CallChannel, ipcCalls, type Scope } from '../../src-shared/contract';

/**
 * The contract's channels as the automation surfaces (the MCP server and the local REST API) offer
 * them: which channels, a description written for an agent or a script, and where a list answer
 * keeps its items (for paging). Window mechanics (`app:*`, `tray:*`, `demo:*`), account keys
 * (`profiles:*`, `connection:*`), preferences (`settings:*`) and tokens (`automation:*`) are not
 * offered: a token or an agent never reaches them.
 */
export interface AutomationChannel {
  channel: CallChannel;
  scope: Scope;
  description: string;
  /**
   * Where the answer's list is: `''` for an answer that is an array, a member name otherwise.
   * Absent: not a list. `server`: the channel pages itself (`page`, `perPage`). Where the surfaces
   * reshape the answer (`public-answers.ts`), this is where the public answer keeps its list.
   */
  list?: { path: string; server?: boolean };
}

type Entry = Omit<AutomationChannel, 'channel' | 'scope'>;

const root = { path: '' } as const;

const ENTRIES: Partial<Record<CallChannel, Entry>> = {
  'catalog:countries': {
    description:
      'List the countries the proxy service has exits in, with the products available in each (residential, mobile, mobile-gb). Use the two-letter code in other catalog calls and proxy strings.',
    list: root,
  },
  'catalog:states': {
    description: 'List the states of a country (values of the `-state-` proxy username segment).',
    list: root,
  },
  'catalog:cities': {
    description: 'List the cities of a country, optionally only those with mobile (4G/5G) modems.',
    list: root,
  },
  'catalog:asns': { description: 'List the ISPs (ASNs) of a country for residential targeting.', list: root },
  'catalog:carriers': {
    description: 'List the mobile carriers of a country with free 4G/5G ports (relocation targets).',
    list: root,
  },
  'catalog:coins': {
    description: 'List the coins and networks accepted for crypto top-ups, with their deposit addresses.',
    list: root,
  },
  'ports:list': {
    description:
      'List the dedicated mobile (4G/5G) ports: id, label, current IP, country, carrier, status, expiry, rotation settings. Use an id with the other ports tools.',
    // Answered as an array of objects (`public-answers.ts`), not the window's table.
    list: root,
  },
  'ports:get': { description: 'Read one mobile port by id, with its current IP and state.' },
  'ports:update': {
    description: 'Change a port’s label, auto-renew or automatic rotation interval.',
  },
  'ports:rotate': {
    description:
      'Rotate a mobile port’s IP now (at most once per 30 seconds per port). Answers a receipt with the previous and the new IP. A refusal within the cooldown carries retryAfterMs; prefer rotate_until_new when you need an IP the port has not had recently.',
  },
  'ports:rotateMany': {
    description: 'Rotate several ports at once; answers one outcome per port (a receipt or an error).',
  },
  'ports:relocate': {
    description:
      'Move a port to another country and carrier (see catalog_carriers). The port is provisioning for a few minutes; follow it with ports_relocations or ports_get.',
  },
  'ports:relocations': { description: 'The relocations in progress and how far each is.', list: root },
  'ports:resetPassword': {
    description: 'Give a port a new proxy password. Clients using the old password stop working.',
  },
  'ports:ipHistory': {
    description: 'The IPs a port had, newest first, paged by the service (page, perPage).',
    list: { path: 'data', server: true },
  },
  'ports:exportIpHistory': { description: 'A port’s whole IP history as CSV text (a long field).' },
  'ports:usage': { description: 'A port’s daily traffic between two days (default: the last 30 days).' },
  'ports:revealRotationLink': {
    description: 'The port’s rotation link (a URL that rotates the port; it carries the API key). Secret.',
  },
  'ports:receipts': {
    description: 'The app’s receipts of a port’s recent rotations (who rotated, when, old and new IP).',
    list: root,
  },
  'ports:health': {
    description:
      'Health of the ports from the app’s checks through each port: up or down, 24 h and 30 d uptime, latency p50/p95, rotations, unique-IP ratio, unchanged and repeated counts, and the last rotation’s verdict (clean, unchanged, repeat, drift). One port with portId.',
    list: root,
  },
  'ports:healthHistory': {
    description:
      'A port’s uptime bar: 96 quarter hours (range 24h) or 30 days (30d) of checks and failures with the first-byte latency band, and its newest checks.',
  },
  'subscriptions:list': {
    description:
      'List the traffic subscriptions (residential or mobile GB): id, label, traffic used and left, expiry. Use an id with the other subscriptions tools.',
    list: root,
  },
  'subscriptions:get': { description: 'Read one traffic subscription by id.' },
  'subscriptions:health': {
    description:
      'Health of the subscriptions from the app’s checks through each one’s main user (when turned on in the app’s settings): up or down, 24 h and 30 d uptime, latency p50/p95. One subscription with subscriptionId.',
    list: root,
  },
  'subscriptions:update': { description: 'Change a subscription’s label or auto-renew.' },
  'subscriptions:resetPassword': {
    description:
      'Give a subscription’s main user a new proxy password. Clients using the old one stop working.',
  },
  'subscriptions:usage': {
    description:
      'Daily traffic of a subscription (or of one sub-user) between two days, with a by-country split.',
  },
  'subscriptions:exportUsage': { description: 'The usage report as CSV text (a long field).' },
  'subscriptions:subUsers': {
    description:
      'List the sub-users of a subscription: id, label, username, traffic used and cap, enabled, creation time. No passwords: subscriptions_build_proxy_string and subscriptions_export_credentials (secrets scope) give the credentials.',
    // Answered as an array of objects (`public-answers.ts`), not the window's table.
    list: root,
  },
  'subscriptions:createSubUser': {
    description: 'Add a sub-user to a subscription, optionally with a traffic cap in bytes.',
  },
  'subscriptions:updateSubUser': {
    description: 'Change a sub-user’s label, cap, enabled state, or give it a new password.',
  },
  'subscriptions:deleteSubUser': { description: 'Delete a sub-user. Its credentials stop working at once.' },
  'subscriptions:createSubUsers': {
    description: 'Add several numbered sub-users at once (labelPrefix1, labelPrefix2, …).',
  },
  'subscriptions:exportCredentials': {
    description: 'Credential lines of sub-users (with passwords) as text. Secret.',
  },
  'subscriptions:buildProxyString': {
    description:
      'Proxy strings (with the password) for a subscription or a sub-user, with country, state, city, ASN, ZIP and sticky-session targeting. Secret.',
  },
  'topups:list': {
    description:
      'List crypto top-ups of the balance, newest first, paged by the service (page, perPage, status).',
    list: { path: 'data', server: true },
  },
  'topups:get': { description: 'Read one top-up: status, address, exact crypto amount, confirmations.' },
  'topups:declareTxid': {
    description: 'Tell the service a top-up’s payment was sent, optionally with its transaction id.',
  },
  'topups:plans': {
    description:
      'Plans the account already uses (from its subscriptions and ports), to buy more of with a top-up.',
    list: root,
  },
  'topups:simulatePayment': {
    description: 'Demo mode only: simulate paying a top-up (exact, short or late).',
  },
  'topups:exportCsv': { description: 'Top-ups as CSV text (a long field).' },
  'topups:paymentDetails': {
    description:
      'What to pay for a top-up: deposit address, exact amount, payment URI (and a QR code SVG, a long field).',
  },
  'topups:pending': {
    description: 'Top-ups waiting for payment or confirmations, one line each.',
    list: root,
  },
  'schedules:list': {
    description:
      'The rotation schedules of the ports (every N seconds or a cron expression) and whether they are paused.',
    list: { path: 'schedules' },
  },
  'schedules:set': {
    description:
      'Rotate ports on a schedule: every N seconds or on a cron expression, with optional jitter and stagger. Runs in the desktop app or web mode.',
  },
  'schedules:remove': { description: 'Remove the rotation schedules of ports.' },
  'schedules:pause': { description: 'Pause (or resume) every rotation schedule.' },
  'schedules:runs': { description: 'The run log of a port’s schedule, newest first.', list: root },
  'alerts:list': {
    description: 'Alerts the app raised (traffic running out, caps reached, expiring ports), newest first.',
    list: root,
  },
  'alerts:dismiss': { description: 'Hide one alert from the list.' },
  'alertRouting:channels': {
    description:
      'The channels alerts are delivered to away from this desktop (webhook, Telegram, ntfy, Slack, Discord, email): where each goes, which events, its health (failing, pending, dead letters). Never a secret.',
    list: root,
  },
  'alertRouting:deliveries': {
    description:
      'The alert delivery log, newest first: time, event type and id, channel, outcome (sent, pending, dead, suppressed, in_digest), attempts and last error. deadOnly: only dead letters.',
    list: { path: 'entries' },
  },
  'proxy:test': {
    description:
      'Send one request through a port or a subscription and answer the exit IP, location and timings.',
  },
  'proxy:testMany': { description: 'Test several ports or subscriptions at once; one result each.' },
  'localProxies:list': {
    description:
      'The local proxies (127.0.0.1 addresses that forward to a port or subscription and add its credentials): address, state, traffic.',
    list: { path: 'proxies' },
  },
  'localProxies:add': { description: 'Add a local proxy for a port, or for a subscription with targeting.' },
  'localProxies:update': { description: 'Change a local proxy’s name, listen port, upstream or options.' },
  'localProxies:remove': { description: 'Remove a local proxy.' },
  'localProxies:start': { description: 'Start a local proxy (it listens where the background jobs run).' },
  'localProxies:stop': { description: 'Stop a local proxy.' },
  'topups:create': {
    description:
      'Create a crypto top-up of the balance (optionally with a purchase paid from it): answers the deposit address and the exact crypto amount. `attemptId` (a uuid) makes a retry safe: one attempt creates at most one top-up.',
  },
  'overview:get': {
    description:
      'What needs attention now: ports or subscriptions expiring or running out, failing proxy tests and schedules, pending top-ups.',
  },
};

/** Every channel the automation surfaces offer, in the contract's order. */
export const AUTOMATION_CHANNELS: readonly AutomationChannel[] = (Object.keys(ipcCalls) as CallChannel[])
  .filter((channel) => ENTRIES[channel] !== undefined)
  .map((channel) => ({ channel, scope: ipcCalls[channel].scope, ...(ENTRIES[channel] as Entry) }));

/** `ports:ipHistory` → `ports_ip_history`; `localProxies:add` → `local_proxies_add`. */
export function toolNameOf(channel: string): string {
  return channel.replace(':', '_').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
