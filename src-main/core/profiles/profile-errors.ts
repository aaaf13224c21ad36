import { AppError, type ProfileErrorCode } from '../errors';

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
