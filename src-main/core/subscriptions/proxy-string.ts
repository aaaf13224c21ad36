/**
 * Proxy strings: the username targeting segments and the line formats tools ask for. Pure, so the
 * string builder, the credential copy buttons, exports and the proxy test all build the same line.
 *
 * The spec names two segments (`-state-{state}` and `-zip-{zip}`, any 5-digit US ZIP); `country`,
 * `city`, `asn` and `session` are the sandbox gateway's documented choices, common to providers.
 */

export type ProxyFormat = 'http_url' | 'socks5_url' | 'host_port_user_pass' | 'user_pass_at_host_port';

export interface ProxyCredentials {
  host: string;
  port: number;
  username: string;
  password: string;
}

export interface Targeting {
  /** ISO 3166-1 alpha-2, upper case (`US`); sent lower case, as gateways match it case-insensitively. */
  country?: string | undefined;
  /** A state id from the catalog (`california`). */
  state?: string | undefined;
  /** A city id from the catalog (`los_angeles`). */
  city?: string | undefined;
  asn?: number | undefined;
  /** Exactly 5 digits; US only. Goes with a state, never with a city or an ASN. */
  zip?: string | undefined;
  /** Sticky session: the same id keeps the same exit IP for a while. */
  session?: string | undefined;
}

/** What the builder needs to know from the catalog about the chosen country. */
export interface TargetingCatalog {
  /** State ids of the country (empty when the country has no state targeting). */
  stateIds: readonly string[];
  /** City ids of the country. */
  cityIds: readonly string[];
}

export interface TargetingError {
  field: keyof Targeting;
  message: string;
}

type TargetingKey = keyof Targeting;

/**
 * The one table of username segments, in the order they are written. `value` turns the field into
 * the segment's text; the gateway splits the username on `-`, so no value may contain one.
 */
const SEGMENTS: ReadonlyArray<{
  key: TargetingKey;
  name: string;
  value: (t: Targeting) => string | undefined;
}> = [
  { key: 'country', name: 'country', value: (t) => t.country?.toLowerCase() },
  { key: 'state', name: 'state', value: (t) => t.state },
  { key: 'city', name: 'city', value: (t) => t.city },
  { key: 'asn', name: 'asn', value: (t) => (t.asn === undefined ? undefined : String(t.asn)) },
  { key: 'zip', name: 'zip', value: (t) => t.zip },
  { key: 'session', name: 'session', value: (t) => t.session },
];

const ZIP = /^\d{5}$/;
const SEGMENT_ID = /^[a-z0-9_]+$/;
const SESSION_ID = /^[A-Za-z0-9_]{1,64}$/;
const COUNTRY = /^[A-Z]{2}$/;

function isSet(value: string | number | undefined): boolean {
  return value !== undefined && value !== '';
}

/**
 * Checks a targeting choice before a line is built. With `catalog` (the chosen country's states and
 * cities), ids are checked against it too; without it only their shape is.
 */
export function validateTargeting(targeting: Targeting, catalog?: TargetingCatalog): TargetingError[] {
  const errors: TargetingError[] = [];
  const { country, state, city, asn, zip, session } = targeting;
  if (isSet(country) && !COUNTRY.test(country ?? '')) {
    errors.push({ field: 'country', message: 'A country is a two-letter upper-case code, e.g. US.' });
  }
  if (isSet(state)) {
    if (!isSet(country)) errors.push({ field: 'state', message: 'Choose a country before a state.' });
    else if (catalog && catalog.stateIds.length === 0) {
      errors.push({ field: 'state', message: `${country ?? ''} has no state targeting.` });
    } else if (!SEGMENT_ID.test(state ?? '') || (catalog && !catalog.stateIds.includes(state ?? ''))) {
      errors.push({ field: 'state', message: `Unknown state for ${country ?? ''}.` });
    }
  }
  if (isSet(city)) {
    if (!isSet(country)) errors.push({ field: 'city', message: 'Choose a country before a city.' });
    else if (!SEGMENT_ID.test(city ?? '') || (catalog && !catalog.cityIds.includes(city ?? ''))) {
      errors.push({ field: 'city', message: `Unknown city for ${country ?? ''}.` });
    }
  }
  if (asn !== undefined && (!Number.isSafeInteger(asn) || asn < 1 || asn > 4_294_967_295)) {
    errors.push({ field: 'asn', message: 'An ASN is a whole number from 1 to 4294967295.' });
  }
  if (isSet(zip)) {
    if (!ZIP.test(zip ?? '')) errors.push({ field: 'zip', message: 'A ZIP code is exactly 5 digits.' });
    else if (isSet(country) && country !== 'US') {
      errors.push({ field: 'zip', message: 'ZIP targeting is for the United States only.' });
    } else if (isSet(city) || asn !== undefined) {
      // A ZIP is finer than a state, so the two go together (the state narrows the exit when the
      // gateway cannot place the ZIP); a city or ASN is a second place that could disagree with it.
      errors.push({ field: 'zip', message: 'A ZIP code replaces city and ASN: clear those first.' });
    }
  }
  if (isSet(session) && !SESSION_ID.test(session ?? '')) {
    errors.push({
      field: 'session',
      message: 'A session id is 1-64 letters, digits or underscores (no hyphens).',
    });
  }
  return errors;
}

/** `base-country-us-state-california-session-abc`: the username with its targeting segments. */
export function targetedUsername(base: string, targeting: Targeting): string {
  // A ZIP is a US ZIP: name the country when the user did not, so the gateway need not guess.
  const effective =
    isSet(targeting.zip) && !isSet(targeting.country) ? { ...targeting, country: 'US' } : targeting;
  let username = base;
  for (const segment of SEGMENTS) {
    const value = segment.value(effective);
    if (value !== undefined && value !== '') username += `-${segment.name}-${value}`;
  }
  return username;
}

/** One proxy line in the chosen format; user and password are percent-encoded inside URLs only. */
export function formatProxyLine(credentials: ProxyCredentials, format: ProxyFormat): string {
  const { host, port, username, password } = credentials;
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const userInfo = `${encodeURIComponent(username)}:${encodeURIComponent(password)}`;
  switch (format) {
    case 'http_url':
      return `http://${userInfo}@${hostPort}`;
    case 'socks5_url':
      return `socks5://${userInfo}@${hostPort}`;
    case 'host_port_user_pass':
      return `${host}:${port}:${username}:${password}`;
    case 'user_pass_at_host_port':
      return `${username}:${password}@${hostPort}`;
  }
}

/** The port a format needs from an endpoint: SOCKS lines take the SOCKS port, the rest `port`. */
export function portForFormat(
  endpoint: { httpPort: number; socksPort: number },
  format: ProxyFormat,
  protocol: 'http' | 'socks5',
): number {
  if (format === 'socks5_url') return endpoint.socksPort;
  if (format === 'http_url') return endpoint.httpPort;
  return protocol === 'socks5' ? endpoint.socksPort : endpoint.httpPort;
}

/** N lines with numbered sticky sessions (`<prefix>1`, `<prefix>2`, …), e.g. for a tool's proxy list. */
export function sessionLines(
  credentials: Omit<ProxyCredentials, 'username'> & { baseUsername: string },
  targeting: Targeting,
  format: ProxyFormat,
  count: number,
  sessionPrefix: string,
): string[] {
  const lines: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    const username = targetedUsername(credentials.baseUsername, {
      ...targeting,
      session: `${sessionPrefix}${index}`,
    });
    lines.push(formatProxyLine({ ...credentials, username }, format));
  }
  return lines;
}
