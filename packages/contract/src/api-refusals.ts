import type { ErrorCode } from './schemas/common.js';
import type { ValidationDetail } from './validation-details.js';

/** Builds one side's error (the server's `ApiHttpError`, the mock's `MockHttpError`) from an `ApiError` answer. */
export type MakeRefusal<E> = (
  status: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
  headers?: Record<string, string>,
) => E;

/**
 * The API's common refusals, worded once so that the reference server and `@vsf/testing`'s mock refuse
 * alike: same status, code, message and headers.
 */
export function apiRefusals<E>(make: MakeRefusal<E>) {
  return {
    /**
     * A 401 with its challenge (RFC 6750): the scheme and realm, and `invalid_token` when a credential was
     * sent but refused (malformed, unknown, revoked, expired), so HTTP tooling knows to ask for another.
     */
    unauthorized: (message: string, { presented = true }: { presented?: boolean } = {}) =>
      make(401, 'unauthorized', message, null, {
        'WWW-Authenticate': `Bearer realm="vsf"${presented ? ', error="invalid_token"' : ''}`,
      }),
    forbidden: (message: string) => make(403, 'forbidden', message),
    notFound: (label: string) => make(404, 'not_found', `${label} not found`),
    conflict: (message: string, details: unknown = null) => make(409, 'conflict', message, details),
    validationFailed: (details: ValidationDetail[]) => make(400, 'validation_error', 'Validation failed', details),
  };
}
