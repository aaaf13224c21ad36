/**
 * Redaction for everything that may reach a log line, an error message or a settings file.
 *
 * The API key travels in three places (the `Authorization` header, the `key=` query parameter of the
 * rotate link, and the rotation link itself), and proxy passwords come back in subscription, sub-user and
 * port bodies. Pattern rules catch those shapes wherever they appear; a `Redactor` also knows the
 * exact secrets of its owner (the key in use, passwords seen) and removes them anywhere in a text.
 */

export const REDACTED = '[REDACTED]';

/** Object keys whose values are always secret, compared case-insensitively without `-`/`_`. */
const SECRET_KEY_NAMES = new Set([
  'password',
  'passwd',
  'apikey',
  'key',
  'authorization',
  'proxyauthorization',
  'rotationlink',
  'token',
  'accesstoken',
  'secret',
  'cookie',
  'setcookie',
]);

const normaliseKeyName = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

/** True for header or property names whose value must never be shown. */
export function isSecretName(name: string): boolean {
  return SECRET_KEY_NAMES.has(normaliseKeyName(name));
}

interface Rule {
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const RULES: readonly Rule[] = [
  // `?key=…`, `&api_key=…`, `&password=…` in URLs and query strings (the rotation link's key).
  {
    pattern: /([?&;](?:key|api[-_]?key|access[-_]?token|token|password|passwd)=)[^&#\s"'<>]*/gi,
    replace: (_m, prefix) => `${prefix}${REDACTED}`,
  },
  // `user:password@` in URLs (proxy URLs built for copying).
  {
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>]+:)[^\s/?#@"'<>]+@/gi,
    replace: (_m, prefix) => `${prefix}${REDACTED}@`,
  },
  // `Authorization: Bearer …`, `authorization=Basic …`, `"authorization": "…"`.
  {
    pattern: /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\r\n"']+/gi,
    replace: (_m, prefix) => `${prefix}${REDACTED}`,
  },
  // A bare `Bearer …` token anywhere else.
  {
    pattern: /(\bBearer\s+)(?!\[REDACTED\])[^\s"',;]+/gi,
    replace: (_m, prefix) => `${prefix}${REDACTED}`,
  },
  // JSON members with secret names: `"password":"…"`, `"rotationLink": "…"`, `"apiKey":"…"`.
  {
    pattern:
      /("(?:password|passwd|api[-_]?key|key|rotation[-_]?link|access[-_]?token|token|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
    replace: (_m, prefix) => `${prefix}"${REDACTED}"`,
  },
  // `password=…` in free text and form bodies. (Not `password: …`: that is how field errors read,
  // e.g. "password: must be printable ASCII".)
  {
    pattern: /\b(password|passwd)(\s*=\s*)(?!"|\[REDACTED\])[^\s&,;"'<>]+/gi,
    replace: (_m, name, separator) => `${name}${separator}${REDACTED}`,
  },
];

/** Secrets shorter than this are not replaced as plain substrings: they would shred ordinary text. */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes secrets from a piece of text: pattern rules first, then every known secret (and its URL
 * encoding) wherever it appears.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let result = text;
  const known = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH);
  // Longest first, so that a secret containing another is removed whole.
  known.sort((a, b) => b.length - a.length);
  for (const secret of known) {
    for (const variant of new Set([secret, encodeURIComponent(secret)])) {
      result = result.replace(new RegExp(escapeRegExp(variant), 'g'), REDACTED);
    }
  }
  for (const rule of RULES) {
    result = result.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
  }
  return result;
}

/** A URL (or path with query) with its `key=` value and any `user:password@` removed. */
export function redactUrl(url: string, secrets: Iterable<string> = []): string {
  return redactText(url, secrets);
}

export type HeaderBag = Record<string, string | readonly string[] | number | undefined>;

/** A copy of `headers` with `Authorization`, cookies and other secret headers replaced. */
export function redactHeaders(headers: HeaderBag, secrets: Iterable<string> = []): Record<string, string> {
  const known = [...secrets];
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : value.join(', ');
    result[name] = isSecretName(name) ? REDACTED : redactText(text, known);
  }
  return result;
}

/**
 * A deep copy of a JSON-like value in which members with secret names (`password`, `rotationLink`,
 * `apiKey`, …) are replaced and every string is passed through `redactText`. Safe on cycles.
 */
export function redactValue(value: unknown, secrets: Iterable<string> = []): unknown {
  const known = [...secrets];
  const seen = new WeakSet<object>();
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redactText(item, known);
    if (item === null || typeof item !== 'object') return item;
    if (seen.has(item)) return '[Circular]';
    seen.add(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item instanceof Error) return redactText(`${item.name}: ${item.message}`, known);
    const copy: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(item)) {
      copy[name] = isSecretName(name) && member !== null && member !== undefined ? REDACTED : walk(member);
    }
    return copy;
  };
  return walk(value);
}

/**
 * Redaction that knows its owner's exact secrets (the API key in use, passwords it has seen) on top of
 * the pattern rules. One per API client; share it with whatever logs on that client's behalf.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string | null | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  add(secret: string | null | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  text(text: string): string {
    return redactText(text, this.secrets);
  }

  url(url: string): string {
    return redactUrl(url, this.secrets);
  }

  headers(headers: HeaderBag): Record<string, string> {
    return redactHeaders(headers, this.secrets);
  }

  value(value: unknown): unknown {
    return redactValue(value, this.secrets);
  }
}
