/**
 * Answers sized for an agent: a list is paged (`limit`, default 50, and an opaque cursor), a long
 * text field is left out unless the call asks for `full`, and whatever the account's size, an answer
 * stays under `ANSWER_MAX_BYTES` (about 20,000 tokens).
 */

export const ANSWER_MAX_BYTES = 80_000;
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 500;
/** A string field longer than this is left out unless `full` is asked for. */
const LONG_FIELD_CHARS = 500;

interface PageRequest {
  limit: number;
  /** Where to start: from the previous answer's `nextCursor`, or null for the first page. */
  cursor: string | null;
}

export class BadCursor extends Error {
  constructor() {
    super('The cursor is not one this server gave (pass the previous answer’s nextCursor, or none).');
    this.name = 'BadCursor';
  }
}

/**
 * No paging or cutting brings the answer under the bound: the tool answers an error saying how to
 * ask for less, never an object its output schema does not describe.
 */
export class AnswerTooLarge extends Error {
  constructor(maxBytes: number) {
    super(
      `The answer is over ${maxBytes} bytes even without its long fields: ask for less (a smaller limit or page, or one item by its id).`,
    );
    this.name = 'AnswerTooLarge';
  }
}

const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new BadCursor();
  return Number(match[1]);
}

const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');

/** Every string longer than `max` characters replaced by a note (at any depth). */
function withoutLongFields(value: unknown, max: number): unknown {
  if (typeof value === 'string') {
    return value.length > max
      ? `[left out: ${value.length} characters; call again with "full": true to get it]`
      : value;
  }
  if (Array.isArray(value)) return value.map((item) => withoutLongFields(item, max));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutLongFields(item, max)]));
}

/** Where an answer keeps its list: `AutomationChannel.list`. */
interface ListPlace {
  path: string;
  server?: boolean;
}

/** The list inside an answer: the answer itself (`''`) or one of its members. */
function listAt(value: unknown, list: ListPlace): unknown[] | null {
  if (list.path === '') return Array.isArray(value) ? value : null;
  if (value === null || typeof value !== 'object') return null;
  const member = (value as Record<string, unknown>)[list.path];
  if (!Array.isArray(member)) return null;
  return member as unknown[];
}

/**
 * The answer with its list replaced by a page of it. An array answers `{items, ...}`; a member keeps
 * its name beside the rest of the answer.
 */
function withList(
  value: unknown,
  list: ListPlace,
  items: unknown[],
  extra: Record<string, unknown>,
): unknown {
  if (list.path === '') return { items, ...extra };
  const record = value as Record<string, unknown>;
  return { ...record, [list.path]: items, ...extra };
}

export interface ShapeOptions {
  /** Where the answer's list is (see `AutomationChannel.list`); absent: not a list. */
  list?: ListPlace;
  /** For a list this server pages; absent for the others. */
  page?: PageRequest;
  full: boolean;
  maxBytes?: number;
}

/**
 * The answer as an agent gets it. A list this server pages answers `{items, total, nextCursor}` (or
 * the answer with its list member paged, beside `total` and `nextCursor`); a bad cursor throws `BadCursor`. A page that would be too
 * large holds fewer items, and `nextCursor` goes on from there. An answer that no paging brings under
 * the bound has its long fields cut, then throws `AnswerTooLarge`.
 */
export function shapeAnswer(value: unknown, options: ShapeOptions): unknown {
  const maxBytes = options.maxBytes ?? ANSWER_MAX_BYTES;
  const hide = (answer: unknown): unknown =>
    options.full ? answer : withoutLongFields(answer, LONG_FIELD_CHARS);
  let answer = hide(value);
  const paged = options.list !== undefined && options.page !== undefined && !options.list.server;
  // A cursor is checked even when the answer holds no list: a bad one is the caller's error.
  const start = paged ? decodeCursor(options.page?.cursor ?? null) : 0;
  const all = options.list ? listAt(value, options.list) : null;
  if (options.list && all) {
    const list = options.list;
    const first = Math.min(start, all.length);
    let count = paged ? Math.min(options.page?.limit ?? PAGE_LIMIT_DEFAULT, all.length - first) : all.length;
    for (;;) {
      const end = first + count;
      const left = all.length - end;
      const extra: Record<string, unknown> = paged
        ? { total: all.length, nextCursor: left > 0 ? encodeCursor(end) : null }
        : left > 0
          ? { truncated: `${left} more items left out to keep the answer small: ask for a smaller perPage` }
          : {};
      answer = hide(withList(value, list, all.slice(first, end), extra));
      if (byteLength(answer) <= maxBytes) return answer;
      if (count <= 1) break;
      count = Math.max(1, Math.floor(count / 2));
    }
  }
  if (byteLength(answer) <= maxBytes) return answer;
  for (const chars of [2_000, LONG_FIELD_CHARS, 100]) {
    const cut = withoutLongFields(answer, chars);
    if (byteLength(cut) <= maxBytes) return cut;
  }
  throw new AnswerTooLarge(maxBytes);
}
