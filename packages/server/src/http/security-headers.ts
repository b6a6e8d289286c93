import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * Helmet's defaults without `upgrade-insecure-requests`: on a server reached over plain HTTP by a LAN or
 * container address it made browsers fetch the docs page's own script and styles over HTTPS, and the page
 * stayed blank (the admin page's own policy already left it out). A TLS terminator in front serves HTTPS
 * regardless.
 */
export const HELMET_OPTIONS = { contentSecurityPolicy: { directives: { 'upgrade-insecure-requests': null } } };

/**
 * Helmet's headers, worked out once at start: with this configuration they depend on nothing in the
 * request, and running its eleven middlewares on every request cost a read a tenth of its time.
 */
export function securityHeaders() {
  const set = new Map<string, string | number | readonly string[]>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, value);
      removed.delete(name.toLowerCase());
      return recorder;
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name.toLowerCase());
    },
  };
  let finished = false;
  helmet(HELMET_OPTIONS)({} as Request, recorder as unknown as ServerResponse as Response, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // A helmet that one day works per request (nonces, asynchronous checks) must fail the start, not go stale.
  if (!finished) throw new Error('helmet() did not finish synchronously; its headers cannot be computed once');
  const headers = [...set];
  const removals = [...removed];
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const name of removals) res.removeHeader(name);
    next();
  };
}
