import { describe, expect, it } from 'vitest';
import { COMMANDS, GLOBAL_OPTIONS } from '../../src-main/cli/command-tree';
import { buildInput, deriveFields, describeFieldError } from '../../src-main/cli/schema-fields';
import { ipcCalls } from '../../src-shared/contract';

// Flags come from the contract's input schemas: a field added to a channel becomes a flag.

describe('deriveFields', () => {
  it('reads flags, types, bounds, defaults and required fields from the schema', () => {
    const fields = deriveFields('ports:rotate', {
      args: ['portId'],
      rename: { 'untilNew.lastN': 'until-new' },
      defaults: { 'untilNew.maxTries': 5 },
    });
    expect(fields.map((f) => [f.path, f.flag, f.kind, f.positional, f.required])).toEqual([
      ['portId', 'port-id', 'string', true, true],
      ['untilNew.lastN', 'until-new', 'integer', false, false],
      ['untilNew.maxTries', 'max-tries', 'integer', false, false],
      ['untilUnique', 'until-unique', 'integer', false, false],
    ]);
    expect(fields[1]?.help).toContain('(1-20)');
    expect(fields[2]?.help).toContain('default 5');
  });

  it('offers each variant of a union through its own flags, and the enum values as choices', () => {
    const fields = deriveFields('schedules:set', { args: ['portIds'] });
    expect(fields.find((f) => f.path === 'cadence.seconds')?.variant).toEqual({
      union: 'cadence',
      discriminator: 'kind',
      value: 'every',
    });
    expect(fields.find((f) => f.path === 'cadence.expression')?.variant?.value).toBe('cron');
    expect(fields.find((f) => f.path === 'portIds')?.kind).toBe('string[]');
    expect(deriveFields('topups:list').find((f) => f.path === 'status')?.choices).toEqual([
      'awaiting_payment',
      'verifying',
      'credited',
      'rejected',
      'expired',
    ]);
  });

  it('every field of every command’s channel is a flag, an argument, or set by the command', () => {
    for (const spec of COMMANDS) {
      if (!spec.channel) continue;
      const fields = deriveFields(spec.channel, spec.fields);
      const flags = fields.filter((f) => !f.positional).map((f) => f.flag);
      // No flag is given twice, and none hides a global option.
      expect(new Set(flags).size, spec.path.join(' ')).toBe(flags.length);
      const globals = GLOBAL_OPTIONS.map((option) => option.flags.split(' ')[0]?.slice(2));
      expect(
        flags.filter((flag) => globals.includes(flag)),
        spec.path.join(' '),
      ).toEqual([]);
      for (const arg of spec.fields?.args ?? []) {
        expect(
          fields.some((f) => f.path === arg && f.positional),
          `${spec.path.join(' ')} ${arg}`,
        ).toBe(true);
      }
    }
  });
});

describe('buildInput', () => {
  it('builds the input the schema accepts, variant and defaults included', () => {
    const overrides = { args: ['portIds'], rename: { 'cadence.expression': 'cron' } };
    const fields = deriveFields('schedules:set', overrides);
    const input = buildInput(
      'schedules:set',
      fields,
      new Map<string, unknown>([
        ['portIds', ['p1', 'p2']],
        ['cadence.expression', '0 * * * *'],
        ['staggerSeconds', '60'],
      ]),
      overrides,
    );
    expect(input).toEqual({
      portIds: ['p1', 'p2'],
      cadence: { kind: 'cron', expression: '0 * * * *' },
      staggerSeconds: 60,
    });
    expect(ipcCalls['schedules:set'].input.safeParse(input).success).toBe(true);
  });

  it('names a schema error after the flag the user typed', () => {
    const overrides = { rename: { amountUsd: 'amount' } };
    const fields = deriveFields('topups:create', overrides);
    expect(describeFieldError(fields, { field: 'amountUsd', message: 'Two decimals' })).toBe(
      '--amount: Two decimals',
    );
    expect(describeFieldError(fields, { field: 'purchase.planId', message: 'Choose a plan' })).toBe(
      '--plan-id: Choose a plan',
    );
    expect(describeFieldError(fields, { field: 'input', message: 'Nothing to change' })).toBe(
      'Nothing to change',
    );
  });
});
