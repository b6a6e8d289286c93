import { type EndpointDefinition, toExpressPath } from '@vsf/contract';
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { forbidden, notFound, unauthorized, validationFailed } from '../errors/api-http-error.js';
import {
  executeIdempotently,
  purgeExpiredIdempotencyKeys,
  validateIdempotencyKey,
} from '../idempotency/idempotent-execution.js';
import { safeEqual } from '../keys/api-key-format.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { requireScopes } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import type { Handler, HandlerContext } from './handler.js';
import { bearerToken, presentedApiKey } from './request-credentials.js';
import { toValidationDetails } from './zod-issues.js';

export interface BindOptions {
  services: Services;
  /** The same services over another executor: idempotent requests run inside one transaction. */
  servicesFor: (db: Knex | Knex.Transaction) => Services;
  db: Knex;
  now: () => Date;
  adminToken?: string | undefined;
  rateLimiter?: KeyRateLimiter | undefined;
}

/** Roughly one idempotent request in this many also purges expired keys. */
const PURGE_EVERY = 100;

/**
 * Mounts each contract endpoint on the router. Authentication, scopes, validation of params, query and
 * body, the success status and the `Location` header all happen here, once, for every endpoint.
 */
export function bindEndpoints<Es extends Record<string, EndpointDefinition>>(
  router: Router,
  endpoints: Es,
  handlers: { [K in keyof Es]: Handler<Es[K]> },
  options: BindOptions,
): void {
  for (const [operationId, endpoint] of Object.entries(endpoints)) {
    const handler = handlers[operationId] as Handler<EndpointDefinition> | undefined;
    if (!handler) throw new Error(`No handler for ${operationId}`);
    router[endpoint.method](toExpressPath(endpoint.path), async (req: Request, res: Response) => {
      const auth = endpoint.surface === 'v1' ? await authenticateKey(req, endpoint, options.services) : undefined;
      if (auth && options.rateLimiter) await options.rateLimiter.consume(auth.keyId, res);
      if (endpoint.surface === 'admin') authenticateAdmin(req, options.adminToken);

      const params = endpoint.params ? endpoint.params.safeParse(req.params) : undefined;
      // A malformed id can never name a record: answer as for any unknown id.
      if (params && !params.success) throw notFound(endpoint.resourceName ?? 'Record');

      const query = endpoint.query?.safeParse(req.query ?? {});
      if (query && !query.success) throw validationFailed(toValidationDetails(query.error));
      if (!endpoint.query && Object.keys(req.query ?? {}).length > 0) {
        throw validationFailed([
          { path: '', message: `Unknown query parameters: ${Object.keys(req.query).join(', ')}` },
        ]);
      }

      let body: unknown;
      if (endpoint.body) {
        if (req.body === undefined) {
          throw validationFailed([
            { path: '', message: 'Expected a JSON object body (Content-Type: application/json)' },
          ]);
        }
        const parsed = endpoint.body.safeParse(req.body);
        if (!parsed.success) throw validationFailed(toValidationDetails(parsed.error));
        body = parsed.data;
      }

      const ctx = {
        params: params?.data,
        query: query?.data,
        body,
        auth,
        services: options.services,
        req,
        res,
      } as HandlerContext<EndpointDefinition>;

      const run = async (services: Services) => {
        const result = (await handler({ ...ctx, services })) as { data?: { id?: unknown } };
        const headers: Record<string, string> = {};
        if (endpoint.response.status === 201 && typeof result?.data?.id === 'string') {
          headers.Location = `${req.baseUrl}${req.path}/${result.data.id}`.replace(/\/{2,}/g, '/');
        }
        return { status: endpoint.response.status, body: result as unknown, headers };
      };

      const idempotencyKey = req.get('idempotency-key');
      if (auth && endpoint.method === 'post' && idempotencyKey !== undefined) {
        validateIdempotencyKey(idempotencyKey);
        const path = `${req.baseUrl}${req.path}`;
        const queryString = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
        const now = options.now();
        const response = await executeIdempotently(
          options.db,
          {
            teamId: auth.teamId,
            apiKeyId: auth.keyId,
            method: 'POST',
            path,
            key: idempotencyKey,
            query: queryString,
            body: req.body,
          },
          now,
          (trx) => run(options.servicesFor(trx)),
        );
        if (response.replayed) res.set('Idempotent-Replayed', 'true');
        res.set(response.headers).status(response.status).json(response.body);
        if (Math.random() * PURGE_EVERY < 1) {
          purgeExpiredIdempotencyKeys(options.db, now).catch((error) =>
            req.log?.warn({ err: error }, 'idempotency purge failed'),
          );
        }
        return;
      }

      const response = await run(options.services);
      res.set(response.headers).status(response.status).json(response.body);
    });
  }
}

async function authenticateKey(req: Request, endpoint: EndpointDefinition, services: Services) {
  const auth = await services.auth.authenticate(presentedApiKey(req));
  requireScopes(auth, endpoint.scopes);
  req.log?.setBindings?.({ teamId: auth.teamId, keyPrefix: auth.prefix });
  return auth;
}

function authenticateAdmin(req: Request, adminToken: string | undefined): void {
  if (!adminToken) throw forbidden('Admin API is disabled; set VSF_ADMIN_TOKEN to enable it');
  const token = bearerToken(req);
  if (!token) throw unauthorized('Admin token required');
  if (!safeEqual(token, adminToken)) throw unauthorized('Invalid admin token');
}
