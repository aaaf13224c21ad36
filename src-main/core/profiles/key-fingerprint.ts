import { createHash } from 'node:crypto';

/**
 * A fingerprint of an API key and the origin it is sent to: two processes tell whether they hold the
 * same account (a command with `PROXY_MANAGER_API_KEY` and the running app) without either showing
 * the other its key. SHA-256 of a random key reveals nothing usable of it.
 */
export function keyFingerprint(key: string, origin: string): string {
  return createHash('sha256').update(`proxy-manager key fingerprint\n${origin}\n${key}`).digest('hex');
}
