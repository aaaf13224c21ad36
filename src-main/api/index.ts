export * from './api-errors';
export * from './api-types';
export * from './base-url';
export * from './base-url-probe';
export { ConcurrencyLimiter } from './concurrency-limiter';
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
  type TransportTimeouts,
} from './http-transport';
export {
  type CallOptions,
  ENDPOINTS,
  ProxyServiceClient,
  type ProxyServiceClientOptions,
  type RereadResult,
  type RotateViaLinkOptions,
  type TopUpCreateOptions,
} from './proxy-service-client';
export * from './redact';
export { DEFAULT_RETRY_OPTIONS, parseRetryAfter, type RetryOptions } from './retry-policy';
