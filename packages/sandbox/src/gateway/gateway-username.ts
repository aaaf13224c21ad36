/**
 * Proxy usernames carry targeting after the account's own username, as `-key-value` segments:
 * `u1234abcd-country-us-state-california-session-a1`. Account usernames never contain `-`, so the
 * first `-` always starts the targeting.
 */
export interface Targeting {
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  /** Catalog state id (lower case), the spec's `-state-{state}`. */
  state?: string;
  /** Catalog city id (lower case). */
  city?: string;
  /** 5-digit US ZIP code, the spec's `-zip-{zip}`; may go with `-state-`, never with `-city-`/`-asn-`. */
  zip?: string;
  asn?: number;
  /** Sticky session id: the same id keeps the same exit IP for a while. */
  session?: string;
}

export type ParsedUsername =
  | { ok: true; account: string; targeting: Targeting; hasTargeting: boolean }
  /** The account part is still given, so that credentials are checked before targeting errors show. */
  | { ok: false; account: string; message: string };

const TARGETING_KEYS = ['country', 'state', 'city', 'zip', 'asn', 'session'] as const;
type TargetingKey = (typeof TARGETING_KEYS)[number];

const isTargetingKey = (key: string): key is TargetingKey =>
  (TARGETING_KEYS as readonly string[]).includes(key);

const FORMATS: Record<TargetingKey, { pattern: RegExp; hint: string }> = {
  country: { pattern: /^[A-Za-z]{2}$/, hint: 'a two-letter country code, e.g. -country-us' },
  state: { pattern: /^[A-Za-z0-9_]{1,64}$/, hint: 'a state id from the catalog, e.g. -state-california' },
  city: { pattern: /^[A-Za-z0-9_]{1,64}$/, hint: 'a city id from the catalog, e.g. -city-los_angeles' },
  zip: { pattern: /^\d{5}$/, hint: 'a 5-digit US ZIP code, e.g. -zip-90210' },
  asn: { pattern: /^\d{1,10}$/, hint: 'an AS number from the catalog, e.g. -asn-7922' },
  session: { pattern: /^[A-Za-z0-9_]{1,64}$/, hint: '1-64 letters, digits or _, e.g. -session-abc123' },
};

/** Splits a proxy username into the account's username and its targeting, checking the syntax only. */
export function parseProxyUsername(raw: string): ParsedUsername {
  const parts = raw.split('-');
  const account = parts[0] ?? '';
  const fail = (message: string): ParsedUsername => ({ ok: false, account, message });
  const targeting: Targeting = {};
  const seen = new Set<string>();
  for (let i = 1; i < parts.length; i += 2) {
    const key = (parts[i] ?? '').toLowerCase();
    const value = parts[i + 1];
    if (!isTargetingKey(key)) {
      return fail(
        `Unknown targeting segment "-${parts[i] ?? ''}"; the gateway knows ${TARGETING_KEYS.map((k) => `-${k}-`).join(', ')}`,
      );
    }
    if (value === undefined || value.length === 0) return fail(`The segment -${key}- has no value`);
    if (seen.has(key)) return fail(`The segment -${key}- is given twice`);
    seen.add(key);
    const format = FORMATS[key];
    if (!format.pattern.test(value)) return fail(`-${key}-${value}: expected ${format.hint}`);
    switch (key) {
      case 'country':
        targeting.country = value.toUpperCase();
        break;
      case 'state':
        targeting.state = value.toLowerCase();
        break;
      case 'city':
        targeting.city = value.toLowerCase();
        break;
      case 'zip':
        targeting.zip = value;
        break;
      case 'asn':
        targeting.asn = Number(value);
        break;
      case 'session':
        targeting.session = value;
        break;
    }
  }
  if (targeting.country === undefined) {
    const needsCountry = (['state', 'city', 'asn'] as const).find((k) => targeting[k] !== undefined);
    if (needsCountry) return fail(`-${needsCountry}- needs a country: add -country-xx`);
  }
  // A ZIP goes with a state (the pair narrows the exit to that state); a city or an ASN is a second,
  // finer place that could disagree with the ZIP, so the pair is refused as the app's builder does.
  if (targeting.zip !== undefined && (targeting.city !== undefined || targeting.asn !== undefined)) {
    return fail('-zip- picks the location by itself: it cannot be combined with -city- or -asn-');
  }
  return { ok: true, account, targeting, hasTargeting: seen.size > 0 };
}

/** A stable text of the targeting (without the session), for exit IP draws and session keys. */
export function targetingKey(targeting: Targeting): string {
  return TARGETING_KEYS.filter((k) => k !== 'session' && targeting[k] !== undefined)
    .map((k) => `${k}=${String(targeting[k])}`)
    .join(',');
}
