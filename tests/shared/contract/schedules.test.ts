import { describe, expect, it } from 'vitest';
import { ipcCalls } from '../../../src-shared/contract';

const setInput = ipcCalls['schedules:set'].input;

function fieldsOf(input: unknown): string[] {
  const parsed = setInput.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.map(String).join('.'));
}

describe('schedules:set input', () => {
  it('accepts an every-N-seconds group with jitter and stagger, defaulting both to 0', () => {
    const parsed = setInput.parse({ portIds: ['a', 'b'], cadence: { kind: 'every', seconds: 30 } });
    expect(parsed).toEqual({
      portIds: ['a', 'b'],
      cadence: { kind: 'every', seconds: 30 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
  });

  it('refuses cadences under 30 s or over 7 days, and jitter or stagger beyond an hour', () => {
    expect(fieldsOf({ portIds: ['a'], cadence: { kind: 'every', seconds: 29 } })).toEqual([
      'cadence.seconds',
    ]);
    expect(fieldsOf({ portIds: ['a'], cadence: { kind: 'every', seconds: 7 * 86_400 + 1 } })).toEqual([
      'cadence.seconds',
    ]);
    expect(
      fieldsOf({
        portIds: ['a'],
        cadence: { kind: 'every', seconds: 60 },
        jitterSeconds: 3601,
        staggerSeconds: -1,
      }),
    ).toEqual(['jitterSeconds', 'staggerSeconds']);
  });

  it('puts a cron error on cadence.expression, with the parser the scheduler runs on', () => {
    expect(fieldsOf({ portIds: ['a'], cadence: { kind: 'cron', expression: '0 9 * * 1-5' } })).toEqual([]);
    expect(fieldsOf({ portIds: ['a'], cadence: { kind: 'cron', expression: 'every day' } })).toEqual([
      'cadence.expression',
    ]);
    expect(fieldsOf({ portIds: ['a'], cadence: { kind: 'cron', expression: '99 * * * *' } })).toEqual([
      'cadence.expression',
    ]);
    // Every 10 seconds is under the service's 30 s floor.
    const parsed = setInput.safeParse({
      portIds: ['a'],
      cadence: { kind: 'cron', expression: '*/10 * * * * *' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/30 seconds/);
  });

  it('names an unknown time zone on cadence.timezone', () => {
    expect(
      fieldsOf({
        portIds: ['a'],
        cadence: { kind: 'cron', expression: '0 9 * * *', timezone: 'Europe/Berlin' },
      }),
    ).toEqual([]);
    expect(
      fieldsOf({
        portIds: ['a'],
        cadence: { kind: 'cron', expression: '0 9 * * *', timezone: 'Mars/Olympus' },
      }),
    ).toEqual(['cadence.timezone']);
  });

  it('takes 1 to 1000 distinct ports', () => {
    const every = { kind: 'every', seconds: 60 };
    expect(fieldsOf({ portIds: [], cadence: every })).toEqual(['portIds']);
    expect(fieldsOf({ portIds: ['a', 'a'], cadence: every })).toEqual(['portIds']);
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}`);
    expect(fieldsOf({ portIds: many, cadence: every })).toEqual(['portIds']);
    expect(fieldsOf({ portIds: many.slice(0, 1000), cadence: every })).toEqual([]);
  });
});

describe('tray:setPinned input', () => {
  it('takes up to 20 distinct ports, and none', () => {
    const input = ipcCalls['tray:setPinned'].input;
    expect(input.safeParse({ portIds: [] }).success).toBe(true);
    expect(input.safeParse({ portIds: ['a', 'a'] }).success).toBe(false);
    expect(input.safeParse({ portIds: Array.from({ length: 21 }, (_, i) => `p${i}`) }).success).toBe(false);
  });
});
