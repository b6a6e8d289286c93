import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiHttpError, apiErrorBody, validationFailed } from '../errors/api-http-error.js';
import { MALFORMED_ESCAPE } from './query-encoding.js';
import { RequestAborted } from './request-aborted.js';

/** Every failure leaves as one `ApiError` body; unexpected ones are logged and never show internals. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  // No one is left to answer, and nothing failed here: the request log's `request aborted` line says it all.
  if (error instanceof RequestAborted) {
    res.destroy();
    return;
  }
  let apiError: ApiHttpError;
  if (error instanceof ApiHttpError) {
    apiError = error;
    // A 500 with a safe message for the client (e.g. media storage down) still needs its cause in the log.
    if (error.status >= 500) req.log?.error({ err: error }, 'server error');
  } else if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
    // Express's router could not decode a path segment (`/cars/%E0%A4%A`): the client's URL, not our fault.
    apiError = validationFailed([{ path: '', message: `${MALFORMED_ESCAPE} in the URL path` }]);
  } else {
    req.log?.error({ err: error }, 'unhandled error');
    apiError = new ApiHttpError(500, 'internal_error', 'Internal server error');
  }
  if (res.headersSent) return;
  res.set(apiError.headers);
  res.status(apiError.status).json(apiErrorBody(apiError));
};

export const routeNotFound: RequestHandler = (req, _res, next) => {
  next(new ApiHttpError(404, 'not_found', `No route for ${req.method} ${req.path}; see /api/v1/openapi.json`));
};
