import { apiRefusals, type ErrorCode, type ValidationDetail } from '@vsf/contract';

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

export const { unauthorized, forbidden, notFound, conflict, validationFailed } = apiRefusals(
  (...answer) => new MockHttpError(...answer),
);

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
