import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Every failure leaves as one `ApiError` body; unexpected ones are logged and never show internals. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const parserType = (error as BodyParserError)?.type;
  let apiError: ApiHttpError;
  if (error instanceof ApiHttpError) apiError = error;
  else if (parserType === 'entity.parse.failed')
    apiError = new ApiHttpError(400, 'invalid_json', 'Malformed JSON body');
  else if (parserType === 'entity.too.large') {
    apiError = new ApiHttpError(413, 'payload_too_large', 'Request body is larger than the 5 MB limit');
  } else if (parserType === 'encoding.unsupported' || parserType === 'charset.unsupported') {
    apiError = new ApiHttpError(400, 'invalid_json', 'Unsupported body encoding; send UTF-8 JSON');
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
