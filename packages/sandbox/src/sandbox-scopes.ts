/**
 * The sandbox's scope policy. The spec names one scope, `proxies`, and requires it only on the GET
 * rotate link; which scope other endpoints need is not shown. The sandbox requires `proxies` for every
 * call that changes a proxy (ports and subscriptions: PATCH, rotate, relocate, reset-password, sub-user
 * writes) and accepts any valid key for reads and top-ups, so that a key without scopes is read-only for
 * proxies.
 */
export const PROXIES_SCOPE = 'proxies';
