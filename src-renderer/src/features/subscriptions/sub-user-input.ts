/** What the sub-user forms share: main's field names, the cap as typed, the limit's words. */

export type CapUnit = 'MB' | 'GB';

/** Main's field names (`trafficLimit.amount`) to the forms'. */
export const SUB_USER_FIELD_ALIASES = {
  trafficLimit: 'cap',
  'trafficLimit.amount': 'cap',
  'trafficLimit.unit': 'cap',
};

export interface CapInput {
  amount: string;
  unit: CapUnit;
}

/** Empty means no cap; anything else goes to main as typed, which turns it into exact bytes. */
export const capOf = ({ amount, unit }: CapInput) =>
  amount.trim() === '' ? null : { amount: amount.trim(), unit };

/** Exact bytes as a decimal GB string (1500000000 -> "1.5"), without floating point. */
export function bytesToGb(bytes: number): string {
  const digits = String(bytes).padStart(10, '0');
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-9).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** "20 sub-users at most" when the service says so; the number as it comes. */
export function limitText(limit: number | null): string | null {
  return limit === null ? null : `${limit} sub-user${limit === 1 ? '' : 's'} at most`;
}
