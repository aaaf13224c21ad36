export type ProfileErrorCode =
  | 'invalid_name'
  | 'duplicate_name'
  | 'invalid_base_url'
  | 'invalid_path_style'
  | 'invalid_key'
  | 'invalid_key_storage'
  | 'profile_not_found'
  | 'profile_read_only'
  | 'keychain_unavailable';

/**
 * A profile operation the user can fix: `field` names the form field to mark, when there is one.
 * Messages never contain the API key.
 */
export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProfileError';
  }

  /** `{ [field]: message }`, the shape of a contract error's `fields`. */
  get fields(): Record<string, string> | undefined {
    return this.field === undefined ? undefined : { [this.field]: this.message };
  }
}
