import { dayRangeDays } from '../../src-shared/contract/shared-inputs';
import { AppError } from './errors';

/**
 * A usage range given by its start alone ends today (the service's default end), which the contract
 * cannot check: it does not know the clock. The start may not be after today, and the range is at
 * most `maxDays` long. Both ends given: the contract has checked them (`dayRangeCheck`).
 */
export function checkUsageStart(
  from: string | undefined,
  to: string | undefined,
  nowMs: number,
  maxDays: number,
): void {
  if (from === undefined || to !== undefined) return;
  const days = dayRangeDays(from, new Date(nowMs).toISOString().slice(0, 10));
  if (days < 1) {
    throw new AppError('invalid_input', 'The start is after today', [
      { field: 'from', message: 'The start is after today' },
    ]);
  }
  if (days > maxDays) {
    const message = `At most ${maxDays} days (from this start to today is ${days})`;
    throw new AppError('invalid_input', message, [{ field: 'from', message }]);
  }
}
