import { useFromHash } from '../../shared/routes';

/**
 * The port shown in detail lives in the URL fragment after the screen (`#/ports/mp_1`), like a
 * subscription's: a port can be linked to, Back closes the detail (and returns to it after another
 * screen), and a notification's route opens it. The app's router only reads the first part.
 */
export function portIdFromHash(hash: string): string | null {
  const match = /^#\/?ports\/([^/?#]+)/.exec(hash);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null; // a broken %-escape
  }
}

export const portHref = (id: string | null) =>
  id === null ? '#/ports' : `#/ports/${encodeURIComponent(id)}`;

export const useOpenPortId = (): string | null => useFromHash(portIdFromHash);
