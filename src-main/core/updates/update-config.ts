/**
 * What the built app trusts for updates. The private halves of these keys are held by the
 * maintainers, outside this repository; the release workflow gets one of them from the
 * `UPDATE_FEED_SIGNING_KEY` secret (docs/install.md, "Signing keys").
 *
 * Two keys so that one can be retired without stranding installs: releases are signed with the
 * first; when it must go, releases are signed with the second, a build that trusts a new pair is
 * shipped, and only then is the old key dropped.
 */
export const TRUSTED_UPDATE_KEYS: readonly string[] = [
  // update-key-1 (current)
  '9ce6739ca87392a33583a22976eeca3e0810e8d06d8a02271b65ebf4daea0242',
  // update-key-2 (standby, for rotation)
  '0ae7e7dcf9eccb9eb7edb08b009a80d7f2da3482d1485b5eb4dd600b61b9cdd1',
];

/**
 * Where the feed is published: the release workflow uploads `update-feed.json` with the installers.
 * `PROXY_MANAGER_UPDATE_FEED_URL` replaces it (a mirror, a test server); the signature check is the
 * same whatever the address.
 */
export const DEFAULT_UPDATE_FEED_URL =
  'https://github.com/proxy-manager/proxy-manager/releases/latest/download/update-feed.json';

/** The daily check. */
export const UPDATE_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
