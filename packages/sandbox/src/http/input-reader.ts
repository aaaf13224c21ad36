import { type FieldError, validationFailed } from './sandbox-error';

interface Presence {
  required?: boolean;
}

interface StringRules extends Presence {
  max?: number;
  min?: number;
  nullable?: boolean;
  /** Text shown to people (labels): no control, bidi-override or unpaired surrogate characters. */
  displayText?: boolean;
}

/**
 * Characters a label must not hold: C0 and C1 controls and DEL (NUL, ANSI escape sequences,
 * line breaks that forge log lines), the bidi embeddings, overrides and isolates U+202A-U+202E and
 * U+2066-U+2069 (text that reads differently from what it is), and unpaired UTF-16 surrogates
 * (with the `u` flag a pair is one code point, so only a lone half matches), which no encoder can
 * write out as UTF-8.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_DISPLAY_TEXT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;

/** Whether `value` holds a character that `displayText` refuses. */
export const hasUnsafeDisplayCharacter = (value: string): boolean => UNSAFE_DISPLAY_TEXT.test(value);

interface IntegerRules extends Presence {
  min?: number;
  max?: number;
  nullable?: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Collects every invalid field of one request and throws a single 422 `validation_error`
 * with one `fields` entry per bad field. Unknown members are ignored (tolerant reader).
 */
export class FieldErrors {
  readonly errors: FieldError[] = [];

  add(field: string, code: string, message: string): void {
    this.errors.push({ field, code, message });
  }

  /** Throws the collected errors, if any. */
  throwIfAny(): void {
    if (this.errors.length > 0) throw validationFailed(this.errors);
  }
}

/** Reads a JSON object body member by member, recording field errors instead of throwing early. */
export class BodyReader {
  private readonly source: Record<string, unknown>;

  private constructor(
    source: Record<string, unknown>,
    readonly errors: FieldErrors,
    private readonly prefix: string,
    /** Set when the body itself is not an object: one error says so, members are not reported on top. */
    private readonly bodyInvalid = false,
  ) {
    this.source = source;
  }

  /**
   * `emptyAllowed` accepts a missing body as `{}` (endpoints whose members are all optional).
   * A body that is not a JSON object is a validation error on the field `body`.
   */
  static of(body: unknown, options: { emptyAllowed: boolean }, errors = new FieldErrors()): BodyReader {
    if (body === undefined && options.emptyAllowed) return new BodyReader({}, errors, '');
    if (!isPlainObject(body)) {
      errors.add('body', body === undefined ? 'required' : 'invalid_type', 'The body must be a JSON object');
      return new BodyReader({}, errors, '', true);
    }
    return new BodyReader(body, errors, '');
  }

  private name(field: string): string {
    return `${this.prefix}${field}`;
  }

  /** Records an error on a member of this object, under its full name (e.g. `purchase.options.city`). */
  addError(field: string, code: string, message: string): void {
    this.errors.add(this.name(field), code, message);
  }

  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.source, field);
  }

  private missing(field: string, rules: Presence & { nullable?: boolean }): boolean {
    const value = this.source[field];
    if (!this.has(field) || value === undefined) {
      if (rules.required && !this.bodyInvalid) this.errors.add(this.name(field), 'required', 'is required');
      return true;
    }
    return false;
  }

  string(field: string, rules: StringRules & { nullable: true }): string | null | undefined;
  string(field: string, rules?: StringRules): string | undefined;
  string(field: string, rules: StringRules = {}): string | null | undefined {
    if (this.missing(field, rules)) return undefined;
    const value = this.source[field];
    if (value === null) {
      if (rules.nullable) return null;
      this.errors.add(this.name(field), 'invalid_type', 'must be a string');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.errors.add(this.name(field), 'invalid_type', 'must be a string');
      return undefined;
    }
    if (rules.min !== undefined && value.length < rules.min) {
      this.errors.add(
        this.name(field),
        rules.min === 1 ? 'required' : 'too_short',
        rules.min === 1 ? 'must not be empty' : `must be at least ${rules.min} characters`,
      );
      return undefined;
    }
    if (rules.max !== undefined && value.length > rules.max) {
      this.errors.add(this.name(field), 'too_long', `must be at most ${rules.max} characters`);
      return undefined;
    }
    if (rules.displayText && hasUnsafeDisplayCharacter(value)) {
      this.errors.add(
        this.name(field),
        'invalid_value',
        'must not contain control characters, bidirectional overrides or unpaired surrogates',
      );
      return undefined;
    }
    return value;
  }

  boolean(field: string, rules: Presence = {}): boolean | undefined {
    if (this.missing(field, rules)) return undefined;
    const value = this.source[field];
    if (typeof value !== 'boolean') {
      this.errors.add(this.name(field), 'invalid_type', 'must be true or false');
      return undefined;
    }
    return value;
  }

  integer(field: string, rules: IntegerRules & { nullable: true }): number | null | undefined;
  integer(field: string, rules?: IntegerRules): number | undefined;
  integer(field: string, rules: IntegerRules = {}): number | null | undefined {
    if (this.missing(field, rules)) return undefined;
    const value = this.source[field];
    if (value === null) {
      if (rules.nullable) return null;
      this.errors.add(this.name(field), 'invalid_type', 'must be an integer');
      return undefined;
    }
    // JSON numbers beyond 2^53 cannot be represented exactly here, so they are refused rather than rounded.
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.errors.add(this.name(field), 'invalid_type', 'must be an integer');
      return undefined;
    }
    if (!Number.isSafeInteger(value)) {
      this.errors.add(this.name(field), 'too_big', `must be at most ${Number.MAX_SAFE_INTEGER}`);
      return undefined;
    }
    if (rules.min !== undefined && value < rules.min) {
      this.errors.add(this.name(field), 'too_small', `must be at least ${rules.min}`);
      return undefined;
    }
    if (rules.max !== undefined && value > rules.max) {
      this.errors.add(this.name(field), 'too_big', `must be at most ${rules.max}`);
      return undefined;
    }
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], rules: Presence = {}): T | undefined {
    if (this.missing(field, rules)) return undefined;
    const value = this.source[field];
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.errors.add(this.name(field), 'invalid_value', `must be one of: ${allowed.join(', ')}`);
      return undefined;
    }
    return value as T;
  }

  /** A nested object whose errors are reported as `field.member`. */
  object(field: string, rules: Presence & { nullable?: boolean } = {}): BodyReader | null | undefined {
    if (this.missing(field, rules)) return undefined;
    const value = this.source[field];
    if (value === null && rules.nullable) return null;
    if (!isPlainObject(value)) {
      this.errors.add(this.name(field), 'invalid_type', 'must be an object');
      return undefined;
    }
    return new BodyReader(value, this.errors, `${this.name(field)}.`);
  }

  /** The raw member, for shapes the reader does not model. */
  raw(field: string): unknown {
    return this.source[field];
  }

  throwIfAny(): void {
    this.errors.throwIfAny();
  }
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a `YYYY-MM-DD` calendar date to the epoch ms of its UTC midnight, or null. */
export function parseIsoDate(value: string): number | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return ms;
}

export const formatIsoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Reads query parameters with the same field-error reporting as bodies. */
export class QueryReader {
  constructor(
    private readonly query: URLSearchParams,
    readonly errors = new FieldErrors(),
  ) {}

  string(name: string): string | undefined {
    const value = this.query.get(name);
    return value === null ? undefined : value;
  }

  integer(name: string, rules: { min: number; max?: number; fallback: number }): number {
    const value = this.query.get(name);
    if (value === null) return rules.fallback;
    if (!/^-?\d+$/.test(value)) {
      this.errors.add(name, 'invalid_type', 'must be an integer');
      return rules.fallback;
    }
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) {
      this.errors.add(name, parsed < 0 ? 'too_small' : 'too_big', 'is out of range');
      return rules.fallback;
    }
    if (parsed < rules.min) {
      this.errors.add(name, 'too_small', `must be at least ${rules.min}`);
      return rules.fallback;
    }
    if (rules.max !== undefined && parsed > rules.max) {
      this.errors.add(name, 'too_big', `must be at most ${rules.max}`);
      return rules.fallback;
    }
    return parsed;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.query.get(name);
    if (value === null) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      this.errors.add(name, 'invalid_value', `must be one of: ${allowed.join(', ')}`);
      return undefined;
    }
    return value as T;
  }

  /** A `YYYY-MM-DD` date as epoch ms of UTC midnight. */
  date(name: string): number | undefined {
    const value = this.query.get(name);
    if (value === null) return undefined;
    const parsed = parseIsoDate(value);
    if (parsed === null) {
      this.errors.add(name, 'invalid_format', 'must be a date in the form YYYY-MM-DD');
      return undefined;
    }
    return parsed;
  }

  throwIfAny(): void {
    this.errors.throwIfAny();
  }
}
