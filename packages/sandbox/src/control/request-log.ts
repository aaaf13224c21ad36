/** One API request as the sandbox saw it; secrets are never recorded. */
export interface LoggedRequest {
  /** Sandbox time (ISO 8601 UTC) when the request was answered. */
  at: string;
  method: string;
  /** Path with query; the `key` query value is replaced by `REDACTED`. */
  path: string;
  idempotencyKey: string | null;
  /** Status sent; 0 when no answer was sent (connection dropped by a fault, or the client went away). */
  status: number;
}

/** The last requests, oldest first, so that client tests can check what was (not) sent or retried. */
export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 500) {}

  record(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(): readonly LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}

function decodedName(rawName: string): string {
  try {
    return decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    return rawName;
  }
}

/**
 * Replaces the value of every `key` query parameter, so that logs never hold an API key. Names are
 * compared after decoding, as the server reads them (`%6Bey=` is the `key` parameter too).
 */
export function redactKeyParam(pathWithQuery: string): string {
  const queryStart = pathWithQuery.indexOf('?');
  if (queryStart < 0) return pathWithQuery;
  const hashStart = pathWithQuery.indexOf('#', queryStart);
  const end = hashStart < 0 ? pathWithQuery.length : hashStart;
  const query = pathWithQuery
    .slice(queryStart + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      return decodedName(rawName) === 'key' && equals >= 0 ? `${rawName}=REDACTED` : pair;
    })
    .join('&');
  return `${pathWithQuery.slice(0, queryStart + 1)}${query}${pathWithQuery.slice(end)}`;
}
