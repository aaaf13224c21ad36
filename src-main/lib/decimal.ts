/**
 * Exact decimal arithmetic on strings, for money and crypto amounts. Values are held as a BigInt
 * count of 10^-scale units, so nothing ever goes through a float.
 */

export type Rounding = 'up' | 'down';

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

/** True for a non-negative plain decimal (`12`, `12.5`, `0.00000001`) with at most `maxScale` decimals. */
export function isDecimalAmount(value: string, maxScale: number): boolean {
  const match = DECIMAL_PATTERN.exec(value);
  if (!match) return false;
  return (match[2]?.length ?? 0) <= maxScale;
}

/** Number of decimals written in `value`. */
export function scaleOf(value: string): number {
  const match = DECIMAL_PATTERN.exec(value);
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  return match[2]?.length ?? 0;
}

/** `value` as an integer count of 10^-scale units; throws if it has more decimals than `scale`. */
export function toUnits(value: string, scale: number): bigint {
  const match = DECIMAL_PATTERN.exec(value);
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  const fraction = match[2] ?? '';
  if (fraction.length > scale) {
    if (/^0*$/.test(fraction.slice(scale))) return toUnits(`${match[1]}.${fraction.slice(0, scale)}`, scale);
    throw new RangeError(`${value} has more than ${scale} decimals`);
  }
  return BigInt(`${match[1]}${fraction.padEnd(scale, '0')}`);
}

/** Formats a unit count with exactly `scale` decimals. */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return rounding === 'up' && remainder !== 0n ? quotient + 1n : quotient;
}

/** `a / b` with `scale` decimals, rounded up or down. */
export function divide(a: string, b: string, scale: number, rounding: Rounding): string {
  const common = Math.max(scaleOf(a), scaleOf(b));
  const numerator = toUnits(a, common) * 10n ** BigInt(scale);
  const denominator = toUnits(b, common);
  if (denominator === 0n) throw new RangeError('division by zero');
  return fromUnits(divideRounded(numerator, denominator, rounding), scale);
}

/** `a * b` with `scale` decimals, rounded up or down. */
export function multiply(a: string, b: string, scale: number, rounding: Rounding): string {
  const sa = scaleOf(a);
  const sb = scaleOf(b);
  const product = toUnits(a, sa) * toUnits(b, sb);
  const productScale = sa + sb;
  if (productScale <= scale) return fromUnits(product * 10n ** BigInt(scale - productScale), scale);
  return fromUnits(divideRounded(product, 10n ** BigInt(productScale - scale), rounding), scale);
}

export function add(a: string, b: string, scale: number): string {
  return fromUnits(toUnits(a, scale) + toUnits(b, scale), scale);
}

/** `a - b`; may be negative. */
export function subtract(a: string, b: string, scale: number): string {
  return fromUnits(toUnits(a, scale) - toUnits(b, scale), scale);
}

export function compare(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const ua = toUnits(a, scale);
  const ub = toUnits(b, scale);
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/** `value` rewritten with exactly `scale` decimals (it must not need rounding). */
export function normalize(value: string, scale: number): string {
  return fromUnits(toUnits(value, scale), scale);
}
