import type { Request, Response } from 'express';
import { ApiHttpError, forbidden, unauthorized } from '../errors/api-http-error.js';
import { safeEqual } from '../keys/api-key-format.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import type { AuthContext } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import { isConnectorRequest, verifiedByConnector } from './connector-request.js';
import { bearerToken, presentedApiKey } from './request-credentials.js';
import { bindRequestLog } from './request-log.js';

/**
 * The client a failed authentication is counted against: the socket's address, or with `VSF_TRUST_PROXY`
 * the address the trusted proxies name (Express's `trust proxy`, which `req.ip` follows).
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * Runs an authentication step; when it refuses, the refusal counts against the client's address first.
 * An address already over its limit is refused before the step runs, whatever it presents.
 */
export async function countingFailures<T>(
  req: Request,
  res: Response,
  limiter: KeyRateLimiter | undefined,
  step: () => T | Promise<T>,
): Promise<T> {
  limiter?.refuseBlockedAddress(clientAddress(req));
  try {
    return await step();
  } catch (error) {
    // Over the address's limit, the 429 replaces the authentication error (no oracle for key guessing).
    if (limiter && error instanceof ApiHttpError) await limiter.countFailedAuth(clientAddress(req), res);
    throw error;
  }
}

/**
 * Authenticates the request's API key, then counts the request against the key. Callers check scopes
 * after this, so a request refused for scope still costs its key, and read a body only after both.
 */
export async function authenticateApiKey(
  req: Request,
  res: Response,
  services: Services,
  limiter: KeyRateLimiter | undefined,
): Promise<AuthContext> {
  const auth =
    verifiedByConnector(req) ??
    (await countingFailures(req, res, limiter, () =>
      services.auth.authenticate(presentedApiKey(req), { connector: isConnectorRequest(req) }),
    ));
  bindRequestLog(req, { teamId: auth.teamId, keyPrefix: auth.prefix });
  if (limiter) await limiter.consume(auth.keyId, res);
  return auth;
}

/** Checks the admin token; a missing or wrong one counts against the client's address. */
export async function authenticateAdminToken(
  req: Request,
  res: Response,
  adminToken: string | undefined,
  limiter: KeyRateLimiter | undefined,
): Promise<void> {
  await countingFailures(req, res, limiter, () => {
    if (!adminToken) throw forbidden('Admin API is disabled; set VSF_ADMIN_TOKEN to enable it');
    const token = bearerToken(req);
    if (!token) throw unauthorized('Admin token required', { presented: false });
    if (!safeEqual(token, adminToken)) throw unauthorized('Invalid admin token');
  });
}
