import type { NextFunction, Request, Response } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';

/** RFC 9112 §3.2's `uri-host [ ":" port ]`: an IP literal or a reg-name (RFC 3986 unreserved, sub-delims, %XX). */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * A request's `Host` as RFC 9112 §3.2 asks: an HTTP/1.1 request needs exactly one, and it must be a host
 * with an optional port. Node keeps the first of two `Host` lines and drops the other, so without this a
 * request could show one name to a proxy (which may read the last) and another to us.
 *
 * Node refuses a request without `Host` with a bare 400 before the app sees it; the server turns that off
 * (start-server.ts) so every refusal here is an ApiError like any other, and the connection closes after it.
 */
export function requireHost(req: Request, res: Response, next: NextFunction): void {
  const problem = hostProblem(req);
  if (!problem) {
    next();
    return;
  }
  res.setHeader('Connection', 'close');
  next(new ApiHttpError(400, 'validation_error', problem));
}

function hostProblem(req: Request): string | undefined {
  const lines = hostLines(req.rawHeaders);
  if (lines > 1) return `A request carries one Host header; this one had ${lines}: send one`;
  const host = req.headers.host;
  if (host === undefined) {
    return req.httpVersion === '1.1' ? 'An HTTP/1.1 request needs a Host header; send one' : undefined;
  }
  if (!HOST_VALUE.test(host)) return 'The Host header must be a host name or address with an optional port';
  return undefined;
}

function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') count++;
  return count;
}
