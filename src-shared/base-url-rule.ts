import { BASE_URL_MAX } from './limits';

/**
 * The one rule for a base URL the app will send an API key to. Both the IPC contract (field errors
 * before anything runs) and the profiles service (what is stored) apply it, so they cannot disagree.
 *
 * - https only, except plain http to this machine (the sandbox runs on loopback): anything else
 *   would carry `Authorization: Bearer <key>` in clear text over the network;
 * - no user name, password, query or fragment: they would break the path join, and a key pasted
 *   there (`?key=...`) would end up in the settings file and in logs.
 *
 * Messages never repeat the input, in case a key was pasted into the wrong field.
 */
export type BaseUrlCheck =
  | {
      ok: true;
      /** Host lower-cased, default port dropped, no trailing slash. */ url: string;
      origin: string;
    }
  | { ok: false; message: string };

/** How the base URL and the spec's paths are joined (some providers' URLs already end in `/v1`). */
export const PATH_STYLES = ['literal', 'strip-v1', 'origin'] as const;
export type PathStyle = (typeof PATH_STYLES)[number];

const BASE_URL_EXAMPLE = 'https://api.example.com/api/v1';

export function checkBaseUrl(input: string): BaseUrlCheck {
  const text = typeof input === 'string' ? input.trim() : '';
  const fail = (message: string): BaseUrlCheck => ({ ok: false, message });
  if (text.length === 0) return fail('Enter the base URL your provider gave you');
  if (text.length > BASE_URL_MAX) return fail(`A base URL has at most ${BASE_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`Enter a full https:// URL, e.g. ${BASE_URL_EXAMPLE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(`The base URL must start with https://, e.g. ${BASE_URL_EXAMPLE}`);
  }
  if (url.hostname === '') return fail('The base URL needs a host name');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return fail(
      'Use https://: over plain http:// the API key would travel unencrypted. ' +
        'http:// is accepted only for this computer (localhost, 127.0.0.1, ::1), e.g. a local sandbox.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return fail('The base URL must not contain a user name or password; enter the API key in its own field');
  }
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return fail(
      'The base URL must not contain a query (?...) or a fragment (#...); enter the API key in its own field',
    );
  }
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, origin: url.origin };
}

/** `localhost`, 127.0.0.0/8 and ::1: traffic to them never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((part) => Number(part) <= 255) && octets[1] === '127';
}

/** The origin (`scheme://host[:port]`) of an absolute URL, or null when it is not one. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
