import type { IpcFieldError } from '../../src-shared/contract';

/** Codes of the profile operations' errors (`ProfileError`: a form field to mark, when there is one). */
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

/** Codes of errors the core raises itself (API errors keep the service's codes). */
export type AppErrorCode =
  | ProfileErrorCode
  | 'not_configured'
  | 'key_origin_mismatch'
  | 'insecure_base_url'
  | 'internal_error'
  // mobile ports
  | 'invalid_input'
  | 'location_unavailable'
  | 'rotation_not_confirmed'
  | 'port_not_found'
  // subscriptions
  | 'not_implemented'
  | 'sub_user_outcome_unknown'
  // top-ups
  | 'txid_already_used'
  | 'topup_closed'
  | 'demo_only'
  // app:openExternal: the OS had no app for the link
  | 'link_not_opened'
  // a change only the process that owns background jobs may make (schedules, local proxies)
  | 'not_job_owner'
  // a top-up attempt begun under another profile, with no matching top-up on this account
  | 'attempt_elsewhere'
  // the same top-up attempt id with other details (Stripe's idempotency rule)
  | 'idempotency_mismatch'
  // local proxies
  | 'local_proxy_not_found'
  | 'port_in_use'
  | 'listen_failed'
  // updates: a feed or download not believed, or nothing to do (docs/install.md)
  | 'update_refused';

/**
 * An error the user can act on: its code, message and fields go to the renderer as they are, so
 * the message is written for the user and never holds a key. `cause` stays in main (for the log).
 */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fields: IpcFieldError[] = [],
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AppError';
  }
}
