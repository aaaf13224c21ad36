import { z } from 'zod';
import type { AppState } from './app';
import { call, type DomainCalls } from './define';
import {
  apiKey,
  baseUrl,
  keyStorage,
  pathStyle,
  type PathStyle,
  profileId,
  profileName,
} from './shared-inputs';

interface KeyStatus {
  configured: boolean;
  /** `…a1b2`: the last four characters only. */
  masked: string | null;
  source: 'keychain' | 'session' | 'demo' | 'environment' | null;
}

export interface ProfileSummary {
  id: string;
  name: string;
  baseUrl: string;
  pathStyle: PathStyle;
  kind: 'account' | 'demo' | 'environment';
  active: boolean;
  key: KeyStatus;
}

export const profilesCalls = {
  'profiles:create': call<AppState>('admin')(
    z.strictObject({
      name: profileName,
      baseUrl,
      pathStyle: pathStyle.default('literal'),
      apiKey,
      storage: keyStorage.default('keychain'),
      /**
       * What to do when a saved profile has the same base URL and key: `refuse` answers
       * `duplicate_profile` (the form sends it first, then `allow` once the user confirmed). Default
       * `allow`, for callers that checked already (the app core, scripts).
       */
      duplicate: z.enum(['refuse', 'allow']).default('allow'),
    }),
  ),
  /**
   * A key is bound to the origin it was saved for: moving a profile with a key to another origin
   * (scheme, host or port) needs the key again in the same call (`apiKey`, kept in `storage`, default
   * where the old one was), else it is refused with a field error on `apiKey`.
   */
  'profiles:update': call<AppState>('admin')(
    z.strictObject({
      profileId,
      name: profileName.optional(),
      baseUrl: baseUrl.optional(),
      pathStyle: pathStyle.optional(),
      apiKey: apiKey.optional(),
      storage: keyStorage.optional(),
    }),
  ),
  'profiles:delete': call<AppState>('admin')(z.strictObject({ profileId })),
  'profiles:switch': call<AppState>('admin')(z.strictObject({ profileId })),
  'profiles:setKey': call<AppState>('admin')(
    z.strictObject({ profileId, apiKey, storage: keyStorage.default('keychain') }),
  ),
  'profiles:removeKey': call<AppState>('admin')(z.strictObject({ profileId })),
} as const satisfies DomainCalls<'profiles'>;
