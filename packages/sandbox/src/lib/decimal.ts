// Own copy, not the app's: the sandbox is its client's test oracle; shared code would let a bug hide in both.
/**
 * Exact decimal arithmetic on strings, for money and crypto amounts. Values are held as a BigInt
 * count of 10^-scale units, so nothing ever goes through a float.
 *
 * Inputs are plain decimals (`12`, `-3.5`, `0.00000001`): no exponent, no `+`, no spaces. Results are
 * written with exactly the scale asked for. Rounding is directional: `up` goes towards +infinity and
 * `down` towards -infinity (for the non-negative amounts of money these are ceil and floor).
 */

export type Rounding = 'up' | 'down';

const DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/;
const AMOUNT_PATTERN = /^(\d+)(?:\.(\d+))?$/;

interface Parsed {
  negative: boolean;
  whole: string;
  fraction: string;
}

function parse(value: string): Parsed {
  const match = DECIMAL_PATTERN.exec(value);
  if (!match) throw new RangeError(`not a decimal number: ${JSON.stringify(value)}`);
  return { negative: match[1] === '-', whole: match[2] as string, fraction: match[3] ?? '' };
}

/** True for a non-negative plain decimal (`12`, `12.5`, `0.00000001`) with at most `maxScale` decimals. */
export function isDecimalAmount(value: string, maxScale: number): boolean {
  const match = AMOUNT_PATTERN.exec(value);
  if (!match) return false;
  return (match[2]?.length ?? 0) <= maxScale;
}

/** Number of decimals written in `value`. */
function scaleOf(value: string): number {
  return parse(value).fraction.length;
}

function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const inexact = numerator % denominator !== 0n;
  return inexact && numerator < 0n !== denominator < 0n ? quotient - 1n : quotient;
}

function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const floor = floorDiv(numerator, denominator);
  return rounding === 'up' && floor * denominator !== numerator ? floor + 1n : floor;
}

/** `value` as an integer count of 10^-scale units; throws if it has more non-zero decimals than `scale`. */
export function toUnits(value: string, scale: number): bigint {
  const { negative, whole, fraction } = parse(value);
  if (fraction.length > scale && !/^0*$/.test(fraction.slice(scale))) {
    throw new RangeError(`${value} has more than ${scale} decimals`);
  }
  const units = BigInt(`${whole}${fraction.slice(0, scale).padEnd(scale, '0')}`);
  return negative ? -units : units;
}

/** Formats a unit count with exactly `scale` decimals. */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** `a / b` with `scale` decimals, rounded up or down. */
export function divide(a: string, b: string, scale: number, rounding: Rounding): string {
  const common = Math.max(scaleOf(a), scaleOf(b));
  const numerator = toUnits(a, common) * 10n ** BigInt(scale);
  const denominator = toUnits(b, common);
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

/** `a + b` with `scale` decimals; neither may have more (non-zero) decimals than `scale`. */
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

/**
 * The shortest spelling of the value of `value` (`1.500` -> `1.5`, `2.000` -> `2`, `-0.0` -> `0`):
 * equal numbers give equal strings, so it serves as a map key.
 */
export function canonical(value: string): string {
  const { negative, whole, fraction } = parse(value);
  const trimmedWhole = whole.replace(/^0+(?=\d)/, '');
  const trimmedFraction = fraction.replace(/0+$/, '');
  const isZero = /^0$/.test(trimmedWhole) && trimmedFraction.length === 0;
  const sign = negative && !isZero ? '-' : '';
  return `${sign}${trimmedWhole}${trimmedFraction.length > 0 ? `.${trimmedFraction}` : ''}`;
}
