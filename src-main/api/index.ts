export * from './api-errors';
export * from '../../src-shared/api-types';
export * from './base-url';
export * from './base-url-probe';
export { type SlowCallInfo, type TransportClock } from './call-budget';
export { ProxyServiceClient } from './proxy-service-client';
export * from './redact';
export { ambientCallOptions } from './call-context';
