import { z } from 'zod';
import { ProxyServiceError } from '../api/api-errors';
import { redactText } from '../api/redact';
import { AppError } from './errors';
import { SecretStoreError } from './secrets/secret-store';
import { SettingsError } from './settings/settings-store';
import type { IpcError, IpcFieldError } from '../../src-shared/contract';

const CODE_BY_KIND: Record<string, string> = {
  network: 'network_error',
  timeout: 'timeout',
  protocol: 'protocol_error',
  cancelled: 'cancelled',
};

/** Input that failed its contract schema: one entry per bad field, messages from the schema. */
export function invalidInputError(error: z.ZodError): IpcError {
  const fields: IpcFieldError[] = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'input',
    message: issue.message,
  }));
  return {
    code: 'invalid_input',
    message:
      fields.length === 1 && fields[0]
        ? `${fields[0].field}: ${fields[0].message}`
        : 'Some fields are invalid',
    fields,
  };
}

/**
 * Turns anything a handler threw into the contract's error shape. Known errors keep their code and
 * message (they are written for users and carry no secrets); anything else becomes `internal_error`
 * and its details go to the log only, redacted.
 */
export function toIpcError(error: unknown, log: (line: string) => void): IpcError {
  if (error instanceof z.ZodError) return invalidInputError(error);
  if (error instanceof ProxyServiceError) {
    const plain = error.toJSON();
    return {
      code:
        plain.kind === 'api'
          ? (plain.code ?? `http_${plain.status ?? 0}`)
          : (CODE_BY_KIND[plain.kind] ?? plain.kind),
      message: redactText(plain.message),
      ...(plain.fields.length > 0
        ? { fields: plain.fields.map((f) => ({ field: f.field, message: f.message })) }
        : {}),
      ...(plain.retryAfterMs !== null ? { retryAfterMs: plain.retryAfterMs } : {}),
      ...(plain.outcomeUnknown ? { outcomeUnknown: true } : {}),
      // A failure of the service itself (its 5xx), which the REST API answers as 502/503.
      ...(typeof plain.status === 'number' && plain.status >= 500 ? { upstreamStatus: plain.status } : {}),
    };
  }
  if (error instanceof AppError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.fields.length > 0 ? { fields: error.fields.map((f) => ({ ...f })) } : {}),
    };
  }
  if (error instanceof SettingsError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.field ? { fields: [{ field: error.field, message: error.message }] } : {}),
    };
  }
  if (error instanceof SecretStoreError) return { code: error.code, message: error.message };
  log(
    `internal error: ${redactText(error instanceof Error ? (error.stack ?? error.message) : String(error))}`,
  );
  return { code: 'internal_error', message: 'Something went wrong inside the app. Details are in the log.' };
}
