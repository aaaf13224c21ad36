/** What the CLI writes to: `process.stdout`/`stderr` in the binary, buffers in tests. */
export interface CliStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  on?(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

const STYLES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39] } as const;
export type Style = keyof typeof STYLES;

/** `--json id,label` named a field the answer does not have: a usage error (exit code 2). */
export class JsonFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonFieldError';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Only the named fields of a value (`--json id,label,currentIp`): of each object of an array, or of
 * the object itself, in the order named. `known` lists the documented fields of a reshaped list, so
 * that a misspelt name is refused even when the list is empty.
 */
function selectFields(value: unknown, fields: readonly string[], known: readonly string[] | null): unknown {
  const objects = Array.isArray(value) ? value.filter(isRecord) : isRecord(value) ? [value] : [];
  if (objects.length === 0 && known === null) return value;
  const available = known ?? [...new Set(objects.flatMap((object) => Object.keys(object)))];
  const unknown = fields.filter((field) => !available.includes(field));
  if (unknown.length > 0) {
    throw new JsonFieldError(`--json: no field "${unknown[0]}" here (the fields: ${available.join(', ')})`);
  }
  const pick = (object: unknown): unknown =>
    isRecord(object) ? Object.fromEntries(fields.map((field) => [field, object[field] ?? null])) : object;
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

/**
 * stdout and stderr as the CLI uses them. stdout carries only the result (one JSON document with
 * `--json`); stderr carries errors (one line) and, on a terminal only, progress. A reader that
 * went away (`| head`: EPIPE) ends the output quietly: nothing more is written, nothing is thrown.
 */
export class Output {
  /** Set when stdout's reader went away. */
  closed = false;
  private progressShown = false;
  /** `--json id,label`: only these fields of what `json` prints; null: everything. */
  jsonFields: readonly string[] | null = null;
  /** The documented fields of the answer being printed (a reshaped list), for `jsonFields`' check. */
  knownFields: readonly string[] | null = null;
  private readonly onError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') this.closed = true;
  };

  constructor(
    private readonly stdout: CliStream,
    private readonly stderr: CliStream,
    private readonly colorWanted: boolean,
  ) {
    stdout.on?.('error', this.onError);
    stderr.on?.('error', this.onError);
  }

  get stdoutIsTty(): boolean {
    return this.stdout.isTTY === true;
  }

  get width(): number {
    return this.stdout.columns ?? 100;
  }

  /** Whether escape sequences may go to this stream: a terminal, and neither NO_COLOR nor --no-color. */
  colorOn(stream: 'stdout' | 'stderr'): boolean {
    return (stream === 'stdout' ? this.stdout : this.stderr).isTTY === true && this.colorWanted;
  }

  style(stream: 'stdout' | 'stderr', style: Style, text: string): string {
    if (!this.colorOn(stream)) return text;
    const [open, close] = STYLES[style];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  }

  out(text: string): void {
    if (this.closed) return;
    try {
      this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    } catch (error) {
      this.onError(error as NodeJS.ErrnoException);
    }
  }

  /** One JSON document on stdout, only `jsonFields` of it when they are set (throws `JsonFieldError`). */
  json(value: unknown): void {
    const shown = this.jsonFields ? selectFields(value, this.jsonFields, this.knownFields) : value;
    this.out(`${JSON.stringify(shown ?? null, null, 2)}\n`);
  }

  /** One line on stderr, newlines folded: errors are always a single line. */
  error(message: string): void {
    this.clearProgress();
    const text = message.replace(/\s*\n\s*/g, ' ').trim();
    this.err(`${this.style('stderr', 'red', 'error:')} ${text}\n`);
  }

  note(message: string): void {
    this.clearProgress();
    this.err(`${message}\n`);
  }

  /** A status line that rewrites itself, on a terminal only (never in a pipe or a log). */
  progress(message: string): void {
    if (this.stderr.isTTY !== true) return;
    this.err(`\r\u001b[2K${this.style('stderr', 'dim', message)}`);
    this.progressShown = true;
  }

  clearProgress(): void {
    if (!this.progressShown) return;
    this.progressShown = false;
    this.err('\r\u001b[2K');
  }

  /**
   * The end of the run. The error listeners stay: a closed pipe reports EPIPE after the last
   * write returned, possibly after `runCli` resolved, and must stay quiet then too.
   */
  detach(): void {
    this.clearProgress();
  }

  private err(text: string): void {
    try {
      this.stderr.write(text);
    } catch {
      // A closed stderr has nobody to tell.
    }
  }
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Right-aligned (numbers). */
  right?: boolean;
}

/** A value as one table cell: no newlines, `-` for nothing. */
function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return value.map(cell).join(', ');
  return JSON.stringify(value);
}

/** Rows under a header, columns padded to their widest cell. */
export function table<T>(output: Output, rows: readonly T[], columns: readonly Column<T>[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const pad = (text: string, index: number): string => {
    const width = widths[index] ?? 0;
    return columns[index]?.right ? text.padStart(width) : text.padEnd(width);
  };
  const header = output.style(
    'stdout',
    'bold',
    columns
      .map((column, index) => pad(column.header, index))
      .join('  ')
      .trimEnd(),
  );
  return [header, ...cells.map((line) => line.map(pad).join('  ').trimEnd())].join('\n');
}

/** `label  value` lines for one object (nested objects one level deep, as `a.b`). */
export function details(output: Output, value: unknown, only?: readonly string[]): string {
  if (value === null || typeof value !== 'object') return cell(value);
  const entries: [string, unknown][] = [];
  for (const [key, field] of Object.entries(value)) {
    if (only && !only.includes(key)) continue;
    if (field !== null && typeof field === 'object' && !Array.isArray(field)) {
      for (const [inner, innerValue] of Object.entries(field as Record<string, unknown>)) {
        entries.push([`${key}.${inner}`, innerValue]);
      }
    } else {
      entries.push([key, field]);
    }
  }
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries
    .map(([key, field]) => `${output.style('stdout', 'bold', key.padEnd(width))}  ${cell(field)}`)
    .join('\n');
}

/**
 * A time for a person: `YYYY-MM-DD HH:MM` in this computer's time zone (JSON keeps ISO 8601, UTC).
 * Null or absent is `-`; text that is not a time is shown as it is.
 */
export function localTime(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** Bytes in decimal units, as the service bills (1 GB = 10^9 bytes). */
export function bytes(value: unknown): string {
  if (typeof value !== 'number') return cell(value);
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let amount = value;
  let unit = 0;
  while (amount >= 1000 && unit < units.length - 1) {
    amount /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? amount : amount.toFixed(2)} ${units[unit]}`;
}
