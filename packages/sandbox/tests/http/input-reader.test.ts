import { describe, expect, it } from 'vitest';
import {
  BodyReader,
  type FieldErrors,
  formatIsoDate,
  hasUnsafeDisplayCharacter,
  parseIsoDate,
  QueryReader,
} from '../../src/http/input-reader';
import { SandboxError, validationFailed } from '../../src/http/sandbox-error';

const codes = (reader: { errors: FieldErrors }) => reader.errors.errors.map((e) => `${e.field}:${e.code}`);

describe('display text (labels)', () => {
  it('finds controls, DEL, C1, bidi overrides and isolates, and unpaired surrogates', () => {
    for (const bad of [
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0080',
      '\u009f',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
      '\ud800',
      '\udfff',
    ]) {
      expect(hasUnsafeDisplayCharacter(`ok${bad}ok`), JSON.stringify(bad)).toBe(true);
    }
    for (const good of [
      'plain',
      '😀',
      '\u00a0',
      '\u2029x'.slice(1),
      '\u200f',
      '\u2065',
      '\u206a',
      '\u202f',
    ]) {
      expect(hasUnsafeDisplayCharacter(good), JSON.stringify(good)).toBe(false);
    }
  });

  it('records invalid_value on the field only when displayText is asked for', () => {
    const reader = BodyReader.of({ label: 'a\u001b[2Jb', note: 'a\u001bb' }, { emptyAllowed: false });
    expect(reader.string('label', { displayText: true })).toBeUndefined();
    expect(reader.string('note')).toBe('a\u001bb');
    expect(codes(reader)).toEqual(['label:invalid_value']);
  });
});

describe('BodyReader', () => {
  it('treats a missing body as {} only when the endpoint allows it', () => {
    const lenient = BodyReader.of(undefined, { emptyAllowed: true });
    expect(lenient.string('label')).toBeUndefined();
    expect(codes(lenient)).toEqual([]);
    const strict = BodyReader.of(undefined, { emptyAllowed: false });
    expect(codes(strict)).toEqual(['body:required']);
  });

  it.each([[null], [[]], ['text'], [3]])('reports a body %j that is not an object once, on body', (body) => {
    const reader = BodyReader.of(body, { emptyAllowed: true });
    reader.string('label', { required: true });
    reader.integer('count', { required: true });
    expect(codes(reader)).toEqual(['body:invalid_type']);
  });

  it('collects every bad field instead of stopping at the first', () => {
    const reader = BodyReader.of(
      { label: 5, enabled: 'yes', count: 'x', mode: 'other' },
      { emptyAllowed: false },
    );
    reader.string('label');
    reader.boolean('enabled');
    reader.integer('count');
    reader.oneOf('mode', ['manual', 'interval']);
    reader.string('missing', { required: true });
    expect(codes(reader)).toEqual([
      'label:invalid_type',
      'enabled:invalid_type',
      'count:invalid_type',
      'mode:invalid_value',
      'missing:required',
    ]);
    let thrown: unknown;
    try {
      reader.throwIfAny();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SandboxError);
    expect((thrown as SandboxError).status).toBe(422);
    expect((thrown as SandboxError).code).toBe('validation_error');
    expect((thrown as SandboxError).fields).toHaveLength(5);
  });

  it('does not throw when every field is valid', () => {
    const reader = BodyReader.of({ label: 'ok' }, { emptyAllowed: false });
    expect(reader.string('label', { required: true, max: 60 })).toBe('ok');
    expect(() => reader.throwIfAny()).not.toThrow();
  });

  describe('string', () => {
    it('checks max and min length', () => {
      const reader = BodyReader.of(
        { a: 'x'.repeat(61), b: 'x'.repeat(60), c: '', d: 'ab' },
        { emptyAllowed: false },
      );
      expect(reader.string('a', { max: 60 })).toBeUndefined();
      expect(reader.string('b', { max: 60 })).toBe('x'.repeat(60));
      expect(reader.string('c', { min: 1 })).toBeUndefined();
      expect(reader.string('d', { min: 3 })).toBeUndefined();
      expect(codes(reader)).toEqual(['a:too_long', 'c:required', 'd:too_short']);
    });

    it('accepts null only when nullable', () => {
      const reader = BodyReader.of({ a: null, b: null }, { emptyAllowed: false });
      expect(reader.string('a', { nullable: true })).toBeNull();
      expect(reader.string('b')).toBeUndefined();
      expect(codes(reader)).toEqual(['b:invalid_type']);
    });
  });

  describe('integer', () => {
    it.each([
      [1.5, 'invalid_type'],
      ['1', 'invalid_type'],
      [true, 'invalid_type'],
      [-1, 'too_small'],
      [11, 'too_big'],
      [2 ** 53, 'too_big'],
    ])('refuses %j', (value, code) => {
      const reader = BodyReader.of({ n: value }, { emptyAllowed: false });
      expect(reader.integer('n', { min: 0, max: 10 })).toBeUndefined();
      expect(codes(reader)).toEqual([`n:${code}`]);
    });

    it('accepts the bounds, and null when nullable', () => {
      const reader = BodyReader.of({ a: 0, b: 10, c: null }, { emptyAllowed: false });
      expect(reader.integer('a', { min: 0, max: 10 })).toBe(0);
      expect(reader.integer('b', { min: 0, max: 10 })).toBe(10);
      expect(reader.integer('c', { nullable: true })).toBeNull();
      expect(codes(reader)).toEqual([]);
    });
  });

  it('reads booleans strictly', () => {
    const reader = BodyReader.of({ a: false, b: 0 }, { emptyAllowed: false });
    expect(reader.boolean('a')).toBe(false);
    expect(reader.boolean('b')).toBeUndefined();
    expect(codes(reader)).toEqual(['b:invalid_type']);
  });

  it('prefixes the errors of a nested object with its name, into the same list', () => {
    const reader = BodyReader.of({ purchase: { quantity: 0 }, note: 1 }, { emptyAllowed: false });
    const purchase = reader.object('purchase');
    purchase?.string('planId', { required: true });
    purchase?.integer('quantity', { min: 1 });
    reader.string('note');
    expect(codes(reader)).toEqual([
      'purchase.planId:required',
      'purchase.quantity:too_small',
      'note:invalid_type',
    ]);
  });

  it('refuses a nested member that is not an object, and accepts null when nullable', () => {
    const reader = BodyReader.of({ a: [], b: null }, { emptyAllowed: false });
    expect(reader.object('a')).toBeUndefined();
    expect(reader.object('b', { nullable: true })).toBeNull();
    expect(codes(reader)).toEqual(['a:invalid_type']);
  });

  it('tells a member given as undefined-equivalent (absent) from one given', () => {
    const reader = BodyReader.of({ a: 1 }, { emptyAllowed: false });
    expect(reader.has('a')).toBe(true);
    expect(reader.has('b')).toBe(false);
    expect(reader.has('toString')).toBe(false);
    expect(reader.raw('a')).toBe(1);
  });
});

describe('QueryReader', () => {
  it('reads strings, choices and dates, reporting every bad one', () => {
    const reader = new QueryReader(new URLSearchParams('q=x&product=boats&from=2026-02-30&to=2026-03-01'));
    expect(reader.string('q')).toBe('x');
    expect(reader.string('absent')).toBeUndefined();
    expect(reader.oneOf('product', ['residential', 'mobile'])).toBeUndefined();
    expect(reader.date('from')).toBeUndefined();
    expect(reader.date('to')).toBe(Date.UTC(2026, 2, 1));
    expect(codes(reader)).toEqual(['product:invalid_value', 'from:invalid_format']);
    expect(() => reader.throwIfAny()).toThrow(SandboxError);
  });

  it('uses the fallback for an absent integer', () => {
    const reader = new QueryReader(new URLSearchParams(''));
    expect(reader.integer('page', { min: 1, fallback: 1 })).toBe(1);
  });
});

describe('dates', () => {
  it.each([
    ['2026-03-10', Date.UTC(2026, 2, 10)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2026-02-29', null],
    ['2026-13-01', null],
    ['2026-3-10', null],
    ['2026-03-10T00:00:00Z', null],
    ['', null],
  ])('parseIsoDate(%j)', (text, expected) => {
    expect(parseIsoDate(text)).toBe(expected);
  });

  it('formats epoch ms as the UTC date', () => {
    expect(formatIsoDate(Date.UTC(2026, 2, 10, 23, 59))).toBe('2026-03-10');
  });
});

describe('validationFailed', () => {
  it('names the field in the message when there is one, and stays generic for several', () => {
    expect(validationFailed([{ field: 'txid', code: 'invalid_format', message: 'bad' }]).message).toBe(
      'txid: bad',
    );
    const several = validationFailed([
      { field: 'a', code: 'x', message: 'm' },
      { field: 'b', code: 'y', message: 'n' },
    ]);
    expect(several.toBody()).toEqual({
      error: {
        code: 'validation_error',
        message: 'The request has invalid fields',
        fields: [
          { field: 'a', code: 'x', message: 'm' },
          { field: 'b', code: 'y', message: 'n' },
        ],
      },
    });
  });

  it('leaves fields out of an error body that has none', () => {
    expect(new SandboxError(409, 'topup_closed', 'closed').toBody()).toEqual({
      error: { code: 'topup_closed', message: 'closed' },
    });
  });
});
