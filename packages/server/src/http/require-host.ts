import type { NextFunction, Request, Response } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';

/**
 * HTTP/1.1 requires a `Host` header (RFC 9112 §3.2). Node refuses a request without one with a bare 400
 * before the app sees it; the server turns that off (start-server.ts) so the refusal is an ApiError like
 * any other, and the connection closes after it.
 */
export function requireHost(req: Request, res: Response, next: NextFunction): void {
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) {
    next();
    return;
  }
  res.setHeader('Connection', 'close');
  next(new ApiHttpError(400, 'validation_error', 'An HTTP/1.1 request needs a Host header; send one'));
}
