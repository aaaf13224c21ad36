/** Input pieces that several domains' calls share; each rule is written once. */
import { z } from 'zod';
import { checkBaseUrl, PATH_STYLES } from '../base-url-rule';
import { RESOURCE_ID_MAX, resourceIdProblem } from '../resource-id';
import {
  API_KEY_MAX,
  LABEL_MAX,
  NOTICE_ID_MAX,
  PAGE_MAX,
  PER_PAGE_MAX,
  PROFILE_ID_MAX,
  PROFILE_NAME_MAX,
} from '../limits';

export const noInput = z.undefined();

/**
 * An id that goes into a request path (a port, subscription, sub-user or top-up): the rule of
 * `shared/resource-id.ts` (no spaces, control characters, slashes or dot-only ids), so a bad id is a
 * field error here rather than a refusal deep in the API client. `empty` is the form's message.
 */
export const resourceId = (empty = 'Enter an id', max = RESOURCE_ID_MAX) =>
  z
    .string()
    .min(1, empty)
    .max(max, `An id has at most ${max} characters`)
    .superRefine((value, context) => {
      // Empty and too long have their own messages above.
      if (value.length === 0 || value.length > max) return;
      const problem = resourceIdProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: `Not an id: it ${problem}` });
    });

/** An API key as pasted: trimmed, no inner whitespace. Never echoed back in errors. */
export const apiKey = z
  .string()
  .trim()
  .min(1, 'Paste your API key')
  .max(API_KEY_MAX, `An API key is at most ${API_KEY_MAX} characters`)
  // It goes into an `Authorization: Bearer` header: one run of visible ASCII characters.
  .regex(/^[\x21-\x7e]+$/, 'An API key is one run of visible characters, without spaces');

/** https (http only to this machine), no credentials, query or fragment: `shared/base-url-rule.ts`. */
export const baseUrl = z
  .string()
  .trim()
  .superRefine((value, context) => {
    const check = checkBaseUrl(value);
    if (!check.ok) context.addIssue({ code: 'custom', message: check.message });
  });

export const profileName = z
  .string()
  .trim()
  .min(1, 'Give the profile a name')
  .max(PROFILE_NAME_MAX, `At most ${PROFILE_NAME_MAX} characters`);
export const profileId = z.string().min(1).max(PROFILE_ID_MAX);
export const noticeId = z.string().min(1).max(NOTICE_ID_MAX);
export const pathStyle = z.enum(PATH_STYLES);
export const keyStorage = z.enum(['keychain', 'session']);
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'A country is a two-letter upper-case ISO code, e.g. US');
export const catalogProduct = z.enum(['residential', 'mobile', 'mobile-gb']);
export const page = z.int().min(1).max(PAGE_MAX);
export const perPage = z.int().min(1).max(PER_PAGE_MAX);

export type PathStyle = z.infer<typeof pathStyle>;
export type KeyStorage = z.infer<typeof keyStorage>;

// Control characters and the bidirectional overrides/isolates that can make a label read
// differently from what it is (CVE-2021-42574 "Trojan Source").
const FORBIDDEN_LABEL_CHARACTERS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A label the user gives something (a port, a subscription); `emptyMessage` asks for one. */
export function labelInput(emptyMessage: string) {
  return z
    .string()
    .trim()
    .min(1, emptyMessage)
    .max(LABEL_MAX, `At most ${LABEL_MAX} characters`)
    .refine((value) => !FORBIDDEN_LABEL_CHARACTERS.test(value), {
      message: 'No control or text-direction characters',
    });
}

/** A calendar day as `YYYY-MM-DD`. */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, 'Not a calendar date');

const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both included (1 for the same day). */
export function dayRangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * A range of days (`from`, `to`, both included) of at most `maxDays` that does not end before it
 * starts; for `superRefine`. One end alone is checked against today in main (it knows the clock).
 */
export function dayRangeCheck(maxDays: number) {
  return (value: { from?: string | undefined; to?: string | undefined }, context: z.core.$RefinementCtx) => {
    if (value.from === undefined || value.to === undefined) return;
    const days = dayRangeDays(value.from, value.to);
    if (days < 1) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'The end is before the start' });
    } else if (days > maxDays) {
      context.addIssue({
        code: 'custom',
        path: ['from'],
        message: `At most ${maxDays} days (this range has ${days})`,
      });
    }
  };
}
