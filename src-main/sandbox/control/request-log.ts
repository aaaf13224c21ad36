/** One API request as the sandbox saw it; secrets are never recorded. */
export interface LoggedRequest {
  at: string;
  method: string;
  /** Path with query; the `key` query value is replaced by `REDACTED`. */
  path: string;
  idempotencyKey: string | null;
  status: number;
}

/** The last requests, newest last, so that client tests can check what was (not) sent or retried. */
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

/** Replaces the value of every `key` query parameter, so that logs never hold an API key. */
export function redactKeyParam(pathWithQuery: string): string {
  return pathWithQuery.replace(/([?&]key=)[^&#]*/gi, '$1REDACTED');
}
