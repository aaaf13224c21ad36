/** One invalid field of a request, as the sandbox reports it in `error.fields`. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * Thrown by handlers to answer with the sandbox's documented error body:
 * `{ "error": { "code", "message", "fields"? } }`.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'SandboxError';
  }

  toBody(): { error: { code: string; message: string; fields?: FieldError[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields ? { fields: this.fields } : {}),
      },
    };
  }
}

export const notFound = (what: string): SandboxError =>
  new SandboxError(404, 'not_found', `${what} not found`);

export const conflict = (code: string, message: string): SandboxError => new SandboxError(409, code, message);

export const validationFailed = (fields: FieldError[]): SandboxError =>
  new SandboxError(
    422,
    'validation_error',
    fields.length === 1 && fields[0]
      ? `${fields[0].field}: ${fields[0].message}`
      : 'The request has invalid fields',
    fields,
  );
