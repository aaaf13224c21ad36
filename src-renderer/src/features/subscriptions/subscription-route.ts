import { useFromHash } from '../../shared/routes';

/**
 * The subscription shown in detail lives in the URL fragment after the screen (`#/subscriptions/sub_1`)
 * so that Back closes the detail; the app's router only reads the first part.
 */
export function subscriptionIdFromHash(hash: string): string | null {
  const match = /^#\/?subscriptions\/([^/?#]+)/.exec(hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

export const subscriptionHref = (id: string | null) =>
  id === null ? '#/subscriptions' : `#/subscriptions/${encodeURIComponent(id)}`;

export const useSelectedSubscriptionId = (): string | null => useFromHash(subscriptionIdFromHash);
