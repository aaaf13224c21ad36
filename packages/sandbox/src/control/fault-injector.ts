import { BodyReader } from '../http/input-reader';

/** A fault the next `times` API requests whose path (with query) contains `match` answer with. */
export interface FaultSpec {
  match: string;
  /** Answer with this status and an error body (or a broken body with `malformedBody`). */
  status?: number;
  /** Extra response headers, e.g. `Retry-After` as seconds or as an HTTP date. */
  headers?: Record<string, string>;
  /** Real-time delay before answering (for client timeout tests). */
  delayMs?: number;
  /** Destroy the socket without an answer. */
  dropConnection?: boolean;
  /** Answer with a body that is not valid JSON. */
  malformedBody?: boolean;
  /**
   * `before` (default): the request never reaches the handler. `after`: the handler runs (state
   * changes) and then the fault replaces its answer: the "did my rotate happen?" case.
   */
  phase: 'before' | 'after';
  remaining: number;
}

// RFC 9110 token and field-value: checked here so that a bad fault is a 422, not a failed answer later.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export class FaultInjector {
  private faults: FaultSpec[] = [];

  /** Validates a control-API body into a fault (422 on bad fields). */
  static parse(body: unknown): FaultSpec {
    const reader = BodyReader.of(body, { emptyAllowed: false });
    const match = reader.string('match', { required: true, min: 1, max: 500 });
    const status = reader.integer('status', { min: 100, max: 599 });
    const delayMs = reader.integer('delayMs', { min: 0, max: 600_000 });
    const dropConnection = reader.boolean('dropConnection');
    const malformedBody = reader.boolean('malformedBody');
    const times = reader.integer('times', { min: 1, max: 100_000 }) ?? 1;
    const phase = reader.oneOf('phase', ['before', 'after'] as const) ?? 'before';
    const headersReader = reader.object('headers');
    let headers: Record<string, string> | undefined;
    if (headersReader) {
      const raw = reader.raw('headers') as Record<string, unknown>;
      headers = {};
      for (const [name, value] of Object.entries(raw)) {
        if (!HEADER_NAME.test(name)) {
          reader.errors.add(`headers.${name}`, 'invalid_format', 'is not a valid HTTP header name');
        } else if (typeof value !== 'string') {
          reader.errors.add(`headers.${name}`, 'invalid_type', 'must be a string');
        } else if (!HEADER_VALUE.test(value)) {
          reader.errors.add(`headers.${name}`, 'invalid_format', 'must not contain control characters');
        } else {
          headers[name] = value;
        }
      }
    }
    const effects: readonly string[] = ['status', 'delayMs', 'dropConnection', 'malformedBody'];
    const effective =
      status !== undefined || (delayMs ?? 0) > 0 || dropConnection === true || malformedBody === true;
    // A bad value of one of them is already reported on its own field.
    const effectRefused = reader.errors.errors.some((error) => effects.includes(error.field));
    if (!effective && !effectRefused) {
      reader.errors.add(
        'status',
        'required',
        'give at least one of status, delayMs, dropConnection, malformedBody',
      );
    }
    reader.throwIfAny();
    return {
      match: match as string,
      ...(status !== undefined ? { status } : {}),
      ...(headers ? { headers } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      ...(dropConnection !== undefined ? { dropConnection } : {}),
      ...(malformedBody !== undefined ? { malformedBody } : {}),
      phase,
      remaining: times,
    };
  }

  add(fault: FaultSpec): void {
    this.faults.push(fault);
  }

  clear(): void {
    this.faults = [];
  }

  list(): readonly FaultSpec[] {
    return this.faults;
  }

  /** Takes one use of the first fault that matches, if any. */
  take(pathWithQuery: string): FaultSpec | null {
    const fault = this.faults.find((f) => pathWithQuery.includes(f.match));
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
