/**
 * The one order for text in every table: numbers inside labels compare as numbers ("plan 9" before
 * "plan 10" before "plan 119"), case and accents aside, in the user's locale.
 */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export const naturalCompare = (a: string, b: string): number => collator.compare(a, b);
