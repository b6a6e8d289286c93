import { apiRefusals, type ErrorCode, type ValidationDetail } from '@vsf/contract';

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

export const { unauthorized, forbidden, notFound, conflict, validationFailed } = apiRefusals(
  (...answer) => new ApiHttpError(...answer),
);
