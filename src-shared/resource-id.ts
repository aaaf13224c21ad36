/**
 * The one rule for an id the app puts into a request path (a port, subscription, sub-user, top-up or
 * plan id), whatever its kind: the contract checks it on every channel, and the API client checks it
 * again before filling a path, so no id can become a path segment of its own.
 *
 * `encodeURIComponent` leaves dots alone, and URL parsing resolves `.` and `..` segments (also
 * written `%2e`): `subUserId: ".."` would turn `DELETE .../subscriptions/{id}/sub-users/{subUserId}`
 * into a DELETE of the subscription itself. Whitespace, control characters, slashes and URL syntax
 * have no place in an id either, and a lone surrogate cannot be encoded at all.
 */
export const RESOURCE_ID_MAX = 128;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}\p{Cf}]/u;
// What would make a URL of an id (a query, a fragment, an escape) or a secret-looking `?key=`.
const URL_SYNTAX = /[?#&=%]/;
const ONLY_DOTS = /^\.+$/;

/** Why `value` cannot be an id, as the end of a sentence ("… is only dots"), or null when it can. */
export function resourceIdProblem(value: string): string | null {
  if (value.length === 0) return 'is empty';
  if (value.length > RESOURCE_ID_MAX) return `has more than ${RESOURCE_ID_MAX} characters`;
  if (LONE_SURROGATE.test(value)) return 'is not well-formed text';
  if (WHITESPACE_OR_CONTROL.test(value)) return 'contains spaces or control characters';
  if (value.includes('/') || value.includes('\\')) return 'contains a slash';
  if (URL_SYNTAX.test(value)) return 'contains ?, #, &, = or %';
  if (ONLY_DOTS.test(value)) return 'is only dots';
  return null;
}
