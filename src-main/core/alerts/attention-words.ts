import type { AppRoute } from '../../../src-shared/contract';

/**
 * The words of the account's attention model: every day count any surface shows (the overview's
 * titles, the alerts, `health`, the tray) comes from `daysFromNow`, so the same 47.99 hours never read
 * "in 1 day" in one place and "in 2 days" in another.
 */

export const DAY_MS = 86_400_000;

/**
 * "within a day", "in 2 days", "less than a day ago", "3 days ago". A future span is rounded to the
 * nearest day (1.9 days is "in 2 days", as the local date beside it shows); under one day it is
 * "within a day" whatever the rounding, so an expiry in 16 hours is never "in 1 day". A past span is
 * counted in whole days.
 */
export function daysFromNow(ms: number): string {
  if (ms >= 0) {
    if (ms < DAY_MS) return 'within a day';
    const days = Math.round(ms / DAY_MS);
    return `in ${days} day${days === 1 ? '' : 's'}`;
  }
  const past = -ms;
  if (past < DAY_MS) return 'less than a day ago';
  const days = Math.floor(past / DAY_MS);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** `1.5 GB`: decimal units, as the service bills. */
export function describeBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits)).toString()} ${units[unit] ?? ''}`;
}

/** What a top-up's purchase buys, in a few words: "5 GB" (a traffic plan), else its plan's name. */
export function describePurchase(purchase: { planName: string; quantity: number }): string {
  const traffic = /(\d+(?:\.\d+)?)\s*(GB|TB)\b/i.exec(purchase.planName);
  if (traffic?.[1] && traffic[2]) {
    const amount = Number(traffic[1]) * purchase.quantity;
    return `${Number(amount.toFixed(2)).toString()} ${traffic[2].toUpperCase()}`;
  }
  return purchase.quantity > 1 ? `${purchase.quantity} × ${purchase.planName}` : purchase.planName;
}

const route = (screen: 'ports' | 'subscriptions' | 'topups', id: string): AppRoute =>
  `/${screen}/${encodeURIComponent(id)}`;

/** A port's detail. */
export const portRoute = (portId: string): AppRoute => route('ports', portId);
/** A subscription's detail. */
export const subscriptionRoute = (subscriptionId: string): AppRoute => route('subscriptions', subscriptionId);
/** A top-up in the wizard's live view. */
export const topUpRoute = (topUpId: string): AppRoute => route('topups', topUpId);
