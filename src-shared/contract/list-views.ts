import { z } from 'zod';

/**
 * What every list answer says about its data: whose it is and how old. Main answers a list from the
 * last one it knew (its snapshot of that profile's list) at once and reads the service again in the
 * background (stale-while-revalidate); the screen shows the age while `revalidating`, and the fresh
 * data comes as the list's `changed` event, with only what differs.
 */
export interface ListFreshness {
  /** The profile whose list this is: an answer for a profile no longer active is dropped. */
  profileId: string;
  /** When main read this from the service (ISO 8601). */
  asOf: string;
  /** True when main is reading it again now; the result comes as an event. */
  revalidating: boolean;
}

/**
 * A long list on the wire as a table: the column names once, then one array of values per item, in
 * the columns' order. The same items as objects would repeat every name on every row (1,000 ports:
 * 300 kB instead of 155 kB), and the page parses what main sends.
 */
export interface WireTable<Columns extends readonly string[], Values extends readonly unknown[]> {
  columns: Columns;
  rows: Values[];
}

/** The input of a list call: `fresh` waits for the service (the Refresh button) instead of the snapshot. */
export const listInput = z.strictObject({ fresh: z.boolean().optional() });

/** The screens whose list the first state of a window can carry (`app:getState`'s `screen`). */
export const SNAPSHOT_SCREENS = ['ports', 'subscriptions'] as const;
export type SnapshotScreen = (typeof SNAPSHOT_SCREENS)[number];
