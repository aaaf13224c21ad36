/** Input pieces that several domains' calls share; each rule is written once. */
import { z } from 'zod';
import { checkBaseUrl, PATH_STYLES } from '../base-url-rule';
import { RESOURCE_ID_MAX, resourceIdProblem } from '../resource-id';
import {
  API_KEY_MAX,
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
