// Own copy, not the app's: the sandbox is its client's test oracle; shared code would let a bug hide in both.
import { MIMEType } from 'node:util';

/**
 * Whether a `Content-Type` header names exactly `application/json`, parameters allowed
 * (`application/json; charset=utf-8`), case-insensitively. A prefix test would also take
 * `application/jsonfoo`. Node's own WHATWG MIME parser does the parsing, so quoting and
 * parameter syntax follow the standard rather than a hand-written pattern.
 */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  try {
    return new MIMEType(header).essence === 'application/json';
  } catch {
    return false;
  }
}
