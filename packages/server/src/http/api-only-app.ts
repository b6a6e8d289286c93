import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import { errorHandler, routeNotFound } from './error-handler.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The API's routers alone, as an application of their own: what the assistant connector runs a tool call
 * through. Every rule of the API lives in these routers (authentication, scopes, tenant, validation, rate
 * limit, idempotency: bind-endpoints.ts); what the full application adds in front of them is about the
 * HTTP exchange with a client (request log line, security headers, `Host` check, unclaimed bodies), which
 * the connector's own request to `/mcp` already went through.
 */
export function apiOnlyApp(mounts: ReadonlyArray<readonly [path: string, router: Router]>): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  // Nothing the connector sends is conditional, and its answer is not cached: no ETag to compute.
  app.set('etag', false);
  // The connector passes the client address its own request resolved: no forwarding headers to trust here.
  app.set('trust proxy', false);
  for (const [path, router] of mounts) app.use(path, router);
  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}
