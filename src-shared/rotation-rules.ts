/**
 * The rules of a rotation schedule that every process checks the same way: the service's minimum
 * interval, the bounds of `every` and jitter, and what makes a cron expression acceptable.
 */
import { Cron } from 'croner';

export const MIN_EVERY_SECONDS = 30;
export const MAX_EVERY_SECONDS = 7 * 86_400;
export const MAX_JITTER_SECONDS = 3_600;

export type RotationCadence =
  { kind: 'every'; seconds: number } | { kind: 'cron'; expression: string; timezone?: string | undefined };

/** Checks a cron expression (5 fields, or 6 with seconds) with the maintained parser. */
export function cronError(expression: string, timezone?: string): string | null {
  const fields = expression.trim().split(/\s+/).length;
  if (fields < 5 || fields > 6) return 'A cron expression has 5 fields (or 6 with seconds first).';
  try {
    const cron = new Cron(expression, { ...(timezone ? { timezone } : {}), paused: true });
    const [first, second] = cron.nextRuns(2);
    if (!first) return 'This cron expression never runs.';
    if (second && second.getTime() - first.getTime() < MIN_EVERY_SECONDS * 1000) {
      // Checked on the first gap only; a pattern such as `*/10 * * * * *` shows itself at once.
      return `Rotations are at least ${MIN_EVERY_SECONDS} seconds apart (the service's limit).`;
    }
    return null;
  } catch (error) {
    return error instanceof Error
      ? `Not a valid cron expression: ${error.message}`
      : 'Not a valid cron expression.';
  }
}
