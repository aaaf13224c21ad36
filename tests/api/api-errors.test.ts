import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  CancelledError,
  type ErrorContext,
  isOutcomeUnknown,
  isProxyServiceError,
  NetworkError,
  ProtocolError,
  TimeoutError,
} from '../../src-main/api/api-errors';

const context = (overrides: Partial<ErrorContext> = {}): ErrorContext => ({
  endpoint: 'POST /v1/mobile/{portId}/rotate',
  attempts: 1,
  outcomeUnknown: false,
  affects: { kind: 'mobilePort', portId: 'port_1' },
  idempotencyKey: null,
  ...overrides,
});

describe('client errors', () => {
  it('serialise to plain objects for IPC', () => {
    const error = new ApiError(
      {
        status: 422,
        code: 'validation_error',
        message: 'label: too long',
        fields: [{ field: 'label', code: 'too_long', message: 'max 60' }],
      },
      context(),
    );
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ApiError',
      kind: 'api',
      message: 'label: too long',
      status: 422,
      code: 'validation_error',
      fields: [{ field: 'label', code: 'too_long', message: 'max 60' }],
      retryAfterMs: null,
      phase: null,
      endpoint: 'POST /v1/mobile/{portId}/rotate',
      attempts: 1,
      outcomeUnknown: false,
      affects: { kind: 'mobilePort', portId: 'port_1' },
      idempotencyKey: null,
    });
    expect(error.fieldMessage('label')).toBe('max 60');
    expect(error.fieldMessage('other')).toBeNull();
  });

  it('AuthError is an ApiError with a reason', () => {
    const unauthorized = new AuthError({ status: 401, code: 'unauthorized', message: 'bad key' }, context());
    const forbidden = new AuthError(
      { status: 403, code: 'insufficient_scope', message: 'no scope' },
      context(),
    );
    expect(unauthorized).toBeInstanceOf(ApiError);
    expect([unauthorized.kind, unauthorized.reason, forbidden.reason]).toEqual([
      'auth',
      'unauthorized',
      'forbidden',
    ]);
    expect(forbidden.toJSON()).toMatchObject({ name: 'AuthError', kind: 'auth', status: 403 });
  });

  it('an unknown outcome adds the re-read advice to the message', () => {
    const error = new NetworkError(
      'The connection broke.',
      'UND_ERR_SOCKET',
      'exchange',
      context({ outcomeUnknown: true }),
    );
    expect(error.message).toBe(
      'The connection broke. The request may or may not have taken effect; reload the current state before trying again.',
    );
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(
      isOutcomeUnknown(
        new NetworkError('x', null, 'exchange', context({ outcomeUnknown: true, affects: null })),
      ),
    ).toBe(false);
  });

  it('each kind carries its own facts', () => {
    expect(new TimeoutError('slow', 'body', 50, context()).toJSON()).toMatchObject({
      kind: 'timeout',
      phase: 'body',
    });
    const protocol = new ProtocolError(
      'bad',
      200,
      [{ path: 'data[0].ip', message: 'expected string' }],
      context(),
    );
    expect(protocol.field).toBe('data[0].ip');
    expect(new ProtocolError('bad', 200, [], context()).field).toBe('(body)');
    expect(new CancelledError('stopped', context()).toJSON()).toMatchObject({
      kind: 'cancelled',
      name: 'CancelledError',
    });
    expect(isProxyServiceError(protocol)).toBe(true);
    expect(isProxyServiceError(new Error('x'))).toBe(false);
  });
});
