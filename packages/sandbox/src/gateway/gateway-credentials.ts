import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The spec: after a password reset "the old password stops working at the gateway within 60 seconds".
 * The sandbox keeps it working for exactly this long on the sandbox clock, then refuses it, so that
 * clients can be tested against both sides of the window.
 */
const PASSWORD_GRACE_MS = 60_000;

/** A password replaced by a reset, still accepted by the gateway until `validUntil` (epoch ms, exclusive). */
export interface RetiredPassword {
  password: string;
  validUntil: number;
}

/** Anything with proxy credentials: a subscription's main user, a sub-user, a mobile port. */
export interface PasswordHolder {
  password: string;
  /** Absent in state saved before the gateway existed. */
  retiredPasswords?: RetiredPassword[];
}

/**
 * Replaces the holder's password at `now`; the old one stays valid for `PASSWORD_GRACE_MS`. Entries
 * whose grace has ended are dropped, so the list stays short however often passwords are reset.
 */
export function replacePassword(holder: PasswordHolder, newPassword: string, now: number): void {
  const still = (holder.retiredPasswords ?? []).filter((r) => r.validUntil > now);
  if (holder.password !== newPassword) {
    still.push({ password: holder.password, validUntil: now + PASSWORD_GRACE_MS });
  }
  holder.retiredPasswords = still;
  holder.password = newPassword;
}

// Comparing digests of equal length keeps the comparison constant-time whatever the lengths.
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

/** Whether `given` is the holder's password, or one retired less than `PASSWORD_GRACE_MS` before `now`. */
export function acceptsPassword(holder: PasswordHolder, given: string, now: number): boolean {
  if (sameSecret(holder.password, given)) return true;
  return (holder.retiredPasswords ?? []).some((r) => now < r.validUntil && sameSecret(r.password, given));
}
