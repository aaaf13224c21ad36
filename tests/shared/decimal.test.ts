import { describe, expect, it } from 'vitest';
import {
  add,
  canonical,
  compare,
  divide,
  fromUnits,
  isDecimalAmount,
  max,
  multiply,
  normalize,
  round,
  scaleOf,
  subtract,
  toUnits,
  toUnitsRounded,
} from '../../src-shared/decimal';

describe('isDecimalAmount', () => {
  it('accepts plain non-negative decimals up to the scale', () => {
    expect(isDecimalAmount('12', 2)).toBe(true);
    expect(isDecimalAmount('12.5', 2)).toBe(true);
    expect(isDecimalAmount('0.01', 2)).toBe(true);
  });

  it('refuses more decimals, signs, exponents, spaces and empty parts', () => {
    for (const bad of ['12.345', '-1', '+1', '1e3', ' 1', '1 ', '.5', '5.', '', '1,5', '0x10']) {
      expect(isDecimalAmount(bad, 2), bad).toBe(false);
    }
  });
});

describe('units', () => {
  it('converts to and from unit counts', () => {
    expect(toUnits('1.5', 8)).toBe(150_000_000n);
    expect(toUnits('-0.25', 2)).toBe(-25n);
    expect(fromUnits(1n, 8)).toBe('0.00000001');
    expect(fromUnits(-5n, 2)).toBe('-0.05');
    expect(fromUnits(42n, 0)).toBe('42');
  });

  it('drops only zero decimals beyond the scale and refuses the others', () => {
    expect(toUnits('1.2300', 2)).toBe(123n);
    expect(() => toUnits('1.231', 2)).toThrow(RangeError);
  });

  it('rounds a unit count towards +infinity or -infinity', () => {
    expect(toUnitsRounded('1.231', 2, 'up')).toBe(124n);
    expect(toUnitsRounded('1.239', 2, 'down')).toBe(123n);
    expect(toUnitsRounded('-1.231', 2, 'up')).toBe(-123n);
    expect(toUnitsRounded('-1.231', 2, 'down')).toBe(-124n);
    expect(round('2.005', 2, 'down')).toBe('2.00');
    expect(round('2', 2, 'up')).toBe('2.00');
  });

  it('reads the written scale and refuses what is not a decimal', () => {
    expect(scaleOf('1.500')).toBe(3);
    expect(() => scaleOf('1e5')).toThrow(RangeError);
    expect(() => toUnits('abc', 2)).toThrow(RangeError);
  });
});

describe('arithmetic', () => {
  it('divides exactly and rounds in the asked direction', () => {
    expect(divide('100.00', '65000.00', 8, 'up')).toBe('0.00153847');
    expect(divide('100.00', '65000.00', 8, 'down')).toBe('0.00153846');
    expect(divide('10', '4', 2, 'up')).toBe('2.50');
    expect(divide('1', '3', 6, 'up')).toBe('0.333334');
    expect(divide('-1', '3', 2, 'down')).toBe('-0.34');
    expect(() => divide('1', '0', 2, 'up')).toThrow(RangeError);
  });

  it('multiplies exactly and rounds in the asked direction', () => {
    expect(multiply('0.00153847', '70000.00', 2, 'down')).toBe('107.69');
    expect(multiply('0.00153847', '70000.00', 2, 'up')).toBe('107.70');
    expect(multiply('17.50', '3', 2, 'down')).toBe('52.50');
    expect(multiply('0.1', '0.2', 4, 'down')).toBe('0.0200');
  });

  it('adds and subtracts, allowing negative results', () => {
    expect(add('0.10', '0.20', 2)).toBe('0.30');
    expect(subtract('10.00', '12.50', 2)).toBe('-2.50');
    expect(add('-2.50', '3', 2)).toBe('0.50');
  });

  it('compares across scales and signs', () => {
    expect(compare('1.50', '1.5')).toBe(0);
    expect(compare('0.1', '0.09')).toBe(1);
    expect(compare('-2.50', '0')).toBe(-1);
    expect(max('25.00', '30')).toBe('30');
  });

  it('avoids the errors of binary floats', () => {
    expect(add('0.1', '0.2', 1)).toBe('0.3');
    expect(multiply('1.15', '100', 2, 'down')).toBe('115.00');
  });
});

describe('normalize and canonical', () => {
  it('rewrites with the asked scale', () => {
    expect(normalize('25', 2)).toBe('25.00');
    expect(normalize('0025.5', 2)).toBe('25.50');
  });

  it('gives equal strings for equal values', () => {
    expect(canonical('1.500')).toBe('1.5');
    expect(canonical('2.000')).toBe('2');
    expect(canonical('007.10')).toBe('7.1');
    expect(canonical('-0.00')).toBe('0');
    expect(canonical('0.00000001')).toBe('0.00000001');
    expect(canonical('100.000001')).not.toBe(canonical('100.00000100000001'));
  });
});
