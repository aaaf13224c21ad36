/**
 * The contract's limits, repeated because the renderer imports only types from main. Main validates
 * every call again; these let a form say what is wrong before asking. `port-limits.test.ts` checks
 * that they still agree with the contract.
 */
export const LABEL_MAX = 60;
export const UNTIL_NEW_LIMITS = { lastN: { min: 1, max: 20 }, maxTries: { min: 1, max: 10 } } as const;
export const ROTATION_INTERVAL_MINUTES = { min: 1, max: 1440 } as const;
export const USAGE_RANGE_MAX_DAYS = 366;
/** `schedules:set` (`src-shared/contract/schedules.ts` and `src-shared/rotation-rules.ts`). */
export const SCHEDULE_LIMITS = {
  minEverySeconds: 30,
  maxEverySeconds: 7 * 86_400,
  maxJitterSeconds: 3_600,
  maxStaggerSeconds: 3_600,
} as const;
