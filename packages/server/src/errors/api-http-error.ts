import type { ErrorCode, ValidationDetail } from '@vsf/contract';

export type { ValidationDetail };

/** An error that maps to one `ApiError` response. Anything else thrown becomes a 500 with no internals. */
export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiHttpError';
  }
}

/** The `ApiError` body every refusal is sent as. */
export const apiErrorBody = (error: ApiHttpError) => ({
  error: error.message,
  code: error.code,
  details: error.details ?? null,
});

/**
 * A 401 with its challenge (RFC 6750): the scheme and realm, and `invalid_token` when a credential was sent
 * but refused (malformed, unknown, revoked, expired), so HTTP tooling knows to ask for another.
 */
export const unauthorized = (message: string, { presented = true }: { presented?: boolean } = {}) =>
  new ApiHttpError(401, 'unauthorized', message, null, {
    'WWW-Authenticate': `Bearer realm="vsf"${presented ? `, error="invalid_token"` : ''}`,
  });
export const forbidden = (message: string) => new ApiHttpError(403, 'forbidden', message);
export const notFound = (resource: string) => new ApiHttpError(404, 'not_found', `${resource} not found`);
export const conflict = (message: string, details: unknown = null) =>
  new ApiHttpError(409, 'conflict', message, details);
export const validationFailed = (details: ValidationDetail[]) =>
  new ApiHttpError(400, 'validation_error', 'Validation failed', details);
