import { AppError } from '../errors';

export type ProfileErrorCode =
  | 'invalid_name'
  | 'duplicate_name'
  | 'duplicate_profile'
  | 'invalid_base_url'
  | 'invalid_path_style'
  | 'invalid_key'
  | 'key_required'
  | 'invalid_key_storage'
  | 'profile_not_found'
  | 'profile_read_only'
  | 'keychain_unavailable';

/**
 * A profile operation the user can fix: `field` names the form field to mark, when there is one.
 * Messages never contain the API key.
 */
export class ProfileError extends AppError {
  declare readonly code: ProfileErrorCode;

  constructor(
    code: ProfileErrorCode,
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, field === undefined ? [] : [{ field, message }], options?.cause);
    this.name = 'ProfileError';
  }
}
