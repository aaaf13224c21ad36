export * from './api-errors';
export * from '../../src-shared/api-types';
export * from './base-url';
export * from './base-url-probe';
export {
  type BudgetClass,
  type BudgetOverrides,
  type CallBudget,
  type CallPriority,
  DEFAULT_BUDGETS,
  type SlowCallInfo,
  systemClock,
  type TransportClock,
} from './call-budget';
export { ConcurrencyLimiter, type Lane, type LimiterOptions } from './concurrency-limiter';
export {
  type ApiLogEntry,
  type ApiLogger,
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUTS,
  type HttpMethod,
  type LogOutcome,
  type RetryMode,
  type Sleep,
  type TransportLoad,
  type TransportTimeouts,
} from './http-transport';
export {
  type CallOptions,
  EMPTY_ANSWER,
  ENDPOINTS,
  ProxyServiceClient,
  type ProxyServiceClientOptions,
  type RereadResult,
  type RotateViaLinkOptions,
  type TopUpCreateOptions,
  WEB_PAGE_ANSWER,
} from './proxy-service-client';
export * from './redact';
export { DEFAULT_RETRY_OPTIONS, parseRetryAfter, type RetryOptions } from './retry-policy';
export { type AmbientCallOptions, ambientCallOptions, runWithCallOptions } from './call-context';
