import type { ErrorCode, ValidationDetail } from '@vsf/contract';

export type { ValidationDetail };

/** One `ApiError` answer, as the reference server sends it (packages/server/src/errors/api-http-error.ts). */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'not_implemented',
    message: string,
    readonly details: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'MockHttpError';
  }
}

export const unauthorized = (message: string, presented = true) =>
  new MockHttpError(401, 'unauthorized', message, null, {
    'WWW-Authenticate': `Bearer realm="vsf"${presented ? ', error="invalid_token"' : ''}`,
  });
export const forbidden = (message: string) => new MockHttpError(403, 'forbidden', message);
export const notFound = (label: string) => new MockHttpError(404, 'not_found', `${label} not found`);
export const conflict = (message: string, details: unknown = null) =>
  new MockHttpError(409, 'conflict', message, details);
export const validationFailed = (details: ValidationDetail[]) =>
  new MockHttpError(400, 'validation_error', 'Validation failed', details);

/**
 * An operation, or one use of it, the mock does not model: a 501 naming it, never a success that would
 * pass a test the real server fails. The README lists every one (`UNIMPLEMENTED_OPERATIONS`).
 */
export const notImplemented = (operationId: string, what?: string) =>
  new MockHttpError(
    501,
    'not_implemented',
    `${operationId}${what ? ` ${what}` : ''} is not implemented by @vsf/testing's mock API; test it against a reference server (vsf-server start)`,
  );

/** The `ApiError` body of an error. */
export const errorBody = (error: MockHttpError) => ({ error: error.message, code: error.code, details: error.details });
