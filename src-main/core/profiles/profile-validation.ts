import { checkBaseUrl } from '../../../src-shared/base-url-rule';
import { API_KEY_MAX, PROFILE_NAME_MAX } from '../../../src-shared/limits';
import { PATH_STYLES, type PathStyle } from '../../../src-shared/base-url-rule';
import { KEY_STORAGES, type KeyStorage } from '../settings/settings-schema';
import { ProfileError } from './profile-errors';

/** Compares names the way a person reads them: case and Unicode form do not make a new name. */
const nameKey = (name: string): string => name.normalize('NFC').toLocaleLowerCase('en');

/** The trimmed name, or a `ProfileError` on `name`. Unique among `others` (but `exceptId`). */
export function validateProfileName(
  input: string,
  others: readonly { id: string; name: string }[],
  exceptId?: string,
): string {
  const name = typeof input === 'string' ? input.trim().normalize('NFC') : '';
  const length = [...name].length;
  if (length === 0) throw new ProfileError('invalid_name', 'Enter a profile name', 'name');
  if (length > PROFILE_NAME_MAX) {
    throw new ProfileError(
      'invalid_name',
      `A profile name has at most ${PROFILE_NAME_MAX} characters`,
      'name',
    );
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new ProfileError('invalid_name', 'A profile name is one line of text', 'name');
  }
  const key = nameKey(name);
  if (others.some((other) => other.id !== exceptId && nameKey(other.name) === key)) {
    throw new ProfileError('duplicate_name', `A profile named "${name}" already exists`, 'name');
  }
  return name;
}

/**
 * The base URL as stored, by the one rule in `shared/base-url-rule.ts` (https, http only to
 * loopback; no credentials, query or fragment), with the host lower-cased, a default port dropped
 * and trailing slashes removed.
 */
export function normalizeBaseUrl(input: string): string {
  const check = checkBaseUrl(input);
  if (!check.ok) throw new ProfileError('invalid_base_url', check.message, 'baseUrl');
  return check.url;
}

export function validatePathStyle(input: string): PathStyle {
  if ((PATH_STYLES as readonly string[]).includes(input)) return input as PathStyle;
  throw new ProfileError(
    'invalid_path_style',
    `The path style must be one of ${PATH_STYLES.join(', ')}`,
    'pathStyle',
  );
}

export function validateKeyStorage(input: string): KeyStorage {
  if ((KEY_STORAGES as readonly string[]).includes(input)) return input as KeyStorage;
  throw new ProfileError(
    'invalid_key_storage',
    'Key storage is either the keychain or this session',
    'storage',
  );
}

/**
 * The key with surrounding white space (from copy and paste) removed. It goes into an
 * `Authorization: Bearer` header, so it must be one run of visible ASCII characters.
 */
export function validateApiKey(input: string): string {
  const key = typeof input === 'string' ? input.trim() : '';
  if (key.length === 0) throw new ProfileError('invalid_key', 'Enter the API key', 'key');
  if (key.length > API_KEY_MAX) {
    throw new ProfileError('invalid_key', `An API key has at most ${API_KEY_MAX} characters`, 'key');
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ProfileError(
      'invalid_key',
      'The API key must be one run of visible characters, without spaces or line breaks',
      'key',
    );
  }
  return key;
}

/** `…` plus the last 4 characters; only `…` for keys shorter than 8, where 4 would give most away. */
export function maskKey(key: string): string {
  return key.length >= 8 ? `…${key.slice(-4)}` : '…';
}
