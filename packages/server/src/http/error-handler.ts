import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';

/** Every failure leaves as one `ApiError` body; unexpected ones are logged and never show internals. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  // Bodies are read by read-json-body.ts, which throws ApiHttpErrors; there is no parser error to translate.
  let apiError: ApiHttpError;
  if (error instanceof ApiHttpError) {
    apiError = error;
    // A 500 with a safe message for the client (e.g. media storage down) still needs its cause in the log.
    if (error.status >= 500) req.log?.error({ err: error }, 'server error');
  } else {
    req.log?.error({ err: error }, 'unhandled error');
    apiError = new ApiHttpError(500, 'internal_error', 'Internal server error');
  }
  if (res.headersSent) return;
  res.set(apiError.headers);
  res.status(apiError.status).json({ error: apiError.message, code: apiError.code, details: apiError.details ?? null });
};

export const routeNotFound: RequestHandler = (req, _res, next) => {
  next(new ApiHttpError(404, 'not_found', `No route for ${req.method} ${req.path}; see /api/v1/openapi.json`));
};
