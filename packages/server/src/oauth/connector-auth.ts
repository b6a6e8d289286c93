import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { ASSISTANT_SCOPES } from '@vsf/contract';
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { Knex } from 'knex';
import { ApiHttpError } from '../errors/api-http-error.js';
import { pagePolicy } from '../http/admin-page/admin-page.js';
import { clientAddress } from '../http/request-guard.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { oauthRepository } from '../repositories/oauth-repository.js';
import type { Services } from '../services/index.js';
import { type ConnectorUrls, connectorUrls } from './connector-urls.js';
import { type OAuthLifetimes, VsfOAuthProvider } from './oauth-provider.js';
import { signInRoutes } from './sign-in-routes.js';

export interface ConnectorAuthDeps {
  db: Knex;
  now: () => Date;
  services: Services;
  limiter: KeyRateLimiter | undefined;
  /** The server's public origin, known once it listens (`VSF_PUBLIC_URL`, else its own address). */
  publicUrl: () => string | undefined;
  lifetimes: OAuthLifetimes;
}

const oauthError = (res: Response, status: number, error: string, description: string) =>
  res.status(status).set('Cache-Control', 'no-store').json({ error, error_description: description });

/**
 * Redirect URIs are matched exactly, character for character. The SDK lets a loopback URI's port vary
 * (RFC 8252 §7.3); a client here registers the URI it will use, so a different one is refused before the
 * SDK's handler can send the browser there.
 */
function exactRedirectUris(db: Knex): RequestHandler {
  return async (req, res, next) => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const clientId = params?.client_id;
    const redirectUri = params?.redirect_uri;
    if (typeof clientId !== 'string' || typeof redirectUri !== 'string') return next();
    const client = await oauthRepository.getClient(db, clientId);
    if (client && !client.redirect_uris.includes(redirectUri)) {
      oauthError(res, 400, 'invalid_request', 'Unregistered redirect_uri: it must equal a registered one exactly');
      return;
    }
    next();
  };
}

/** Registration and token requests count against the caller's address like any request (no unbounded rows). */
function perAddressLimit(limiter: KeyRateLimiter | undefined, name: string): RequestHandler {
  return async (req, res, next) => {
    if (!limiter) return next();
    try {
      await limiter.consume(`oauth-${name}:${clientAddress(req)}`, res);
      next();
    } catch (error) {
      // Only the limit's own refusal is a 429: a failing store is the server's fault (logged, 500), not the client's.
      if (!(error instanceof ApiHttpError && error.status === 429)) return next(error);
      const retryAfter = error.headers['Retry-After'] ?? '60';
      res.set('Retry-After', retryAfter);
      oauthError(res, 429, 'too_many_requests', `Too many ${name} requests; retry after ${retryAfter} s`);
    }
  };
}

function protectedResourceMetadata(urls: ConnectorUrls) {
  return {
    resource: urls.resource.href,
    authorization_servers: [urls.issuer.href.replace(/\/$/, '')],
    scopes_supported: [...ASSISTANT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Vehicle Storage Facility API (assistant connector)',
  };
}

function buildRouter(deps: ConnectorAuthDeps, urls: ConnectorUrls): Router {
  const provider = new VsfOAuthProvider({ ...deps, urls });
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 64 });
  router.use('/authorize', pagePolicy, form, exactRedirectUris(deps.db));
  router.use('/register', perAddressLimit(deps.limiter, 'registration'));
  router.use('/token', perAddressLimit(deps.limiter, 'token'));
  // RFC 9728's metadata at the bare path too, for clients that look there before the path-suffixed one.
  router.get('/.well-known/oauth-protected-resource', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(protectedResourceMetadata(urls));
  });
  router.use(
    mcpAuthRouter({
      provider,
      issuerUrl: urls.issuer,
      resourceServerUrl: urls.resource,
      scopesSupported: [...ASSISTANT_SCOPES],
      resourceName: 'Vehicle Storage Facility API (assistant connector)',
      serviceDocumentationUrl: new URL('/docs', urls.issuer),
      // Each step is limited where it matters: failed sign-ins per address, registration and tokens above.
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );
  router.use('/oauth', pagePolicy, signInRoutes({ ...deps, urls: () => urls }));
  return router;
}

const CONNECTOR_PATHS = /^\/(authorize|token|register|revoke|oauth\/|\.well-known\/oauth-)/;

/**
 * The OAuth 2.1 authorization server of the assistant connector, at the server's root as the MCP
 * authorization spec asks. Built on its first request, when the server knows its public address.
 */
export function connectorAuth(deps: ConnectorAuthDeps): RequestHandler {
  let built: { url: string; router: Router } | undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!CONNECTOR_PATHS.test(req.path)) return next();
    const publicUrl = deps.publicUrl();
    if (!publicUrl) return next();
    if (built?.url !== publicUrl) {
      try {
        built = { url: publicUrl, router: buildRouter(deps, connectorUrls(publicUrl)) };
      } catch (error) {
        // The SDK refuses an http issuer other than localhost: say how to fix it rather than fail each request.
        oauthError(
          res,
          503,
          'temporarily_unavailable',
          `The assistant connector is off: ${(error as Error).message}; set VSF_PUBLIC_URL to the server's https address`,
        );
        return;
      }
    }
    built.router(req, res, next);
  };
}
