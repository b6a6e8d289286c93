import { type EndpointDefinition, toExpressPath, toValidationDetails } from '@vsf/contract';
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { notFound, validationFailed } from '../errors/api-http-error.js';
import {
  executeIdempotently,
  purgeExpiredIdempotencyKeys,
  validateIdempotencyKey,
} from '../idempotency/idempotent-execution.js';
import { idempotencyRoutePath } from '../idempotency/route-key.js';
import { decodeBase64 } from '../media/image-upload.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { requireScopes } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import type { BodyTimeouts } from './body-timeouts.js';
import { requireFieldScopes } from './field-scopes.js';
import type { BinaryBody, Handler, HandlerContext } from './handler.js';
import { jsonSafetyProblems } from './json-safety.js';
import { malformedQueryEscapes } from './query-encoding.js';
import { imageFingerprintBody, imageMediaTypeOf, isImageBody, readImageBody } from './read-image-body.js';
import { readJsonBody } from './read-json-body.js';
import { FILE_PART, isMultipartBody, readFormUpload } from './read-multipart-image.js';
import { authenticateAdminToken, authenticateApiKey } from './request-guard.js';
import { sendJson } from './send-json.js';
import { claimsWithFirstWrite } from './standard-handlers.js';

export interface BindOptions {
  services: Services;
  /** The same services over another executor: idempotent requests run inside one transaction. */
  servicesFor: (db: Knex | Knex.Transaction) => Services;
  db: Knex;
  now: () => Date;
  adminToken?: string | undefined;
  rateLimiter?: KeyRateLimiter | undefined;
  bodyTimeouts: BodyTimeouts;
}

/** Where the v1 surface is mounted (create-app.ts); idempotency records name routes under it. */
const API_PREFIX = '/api/v1';

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
    const firstWriteClaims = claimsWithFirstWrite(handler, options.services);
    router[endpoint.method](toExpressPath(endpoint.path), async (req: Request, res: Response) => {
      // Authenticate, count, check scopes, and only then look at the request's content: a refused or
      // over-limit request costs no body read, and a request refused for scope still counts.
      const auth =
        endpoint.surface === 'v1'
          ? await authenticateApiKey(req, res, options.services, options.rateLimiter)
          : undefined;
      if (auth) requireScopes(auth, endpoint.scopes);
      if (endpoint.surface === 'admin') {
        await authenticateAdminToken(req, res, options.adminToken, options.rateLimiter);
      }
      // The `binary-upload` extension: the image's bytes as the body and the other fields in the query,
      // or a multipart/form-data form with the image in its `file` part and the other fields beside it.
      const form = endpoint.binaryUpload !== undefined && isMultipartBody(req);
      const binary = endpoint.binaryUpload !== undefined && (form || isImageBody(req));
      // Read only now: an unauthenticated or unauthorised caller never makes the server parse a body.
      if (endpoint.body && !binary) {
        req.body = await readJsonBody(
          req,
          options.bodyTimeouts,
          endpoint.binaryUpload &&
            `an image (Content-Type: image/*, or multipart/form-data with the image in a "${FILE_PART}" part: the binary-upload extension)`,
        );
      }

      const params = endpoint.params ? endpoint.params.safeParse(req.params) : undefined;
      // A malformed id can never name a record: answer as for any unknown id.
      if (params && !params.success) throw notFound(endpoint.resourceName ?? 'Record');

      const unsafeQuery = [...malformedQueryEscapes(req.originalUrl), ...jsonSafetyProblems(req.query ?? {})];
      if (unsafeQuery.length > 0) throw validationFailed(unsafeQuery);
      const query = (binary && !form ? endpoint.binaryUpload?.query : endpoint.query)?.safeParse(req.query ?? {});
      if (query && !query.success) throw validationFailed(toValidationDetails(query.error));
      if (!query && Object.keys(req.query ?? {}).length > 0) {
        throw validationFailed([
          { path: '', message: `Unknown query parameters: ${Object.keys(req.query).join(', ')}` },
        ]);
      }

      let body: unknown;
      // What an Idempotency-Key compares: the request as sent, but an image as its fields and the bytes'
      // digest, whether it came raw or as base64, so a retry may switch between the two.
      let fingerprint = {
        query: req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '',
        body: req.body as unknown,
      };
      if (binary) {
        const { fields, bytes } =
          form && endpoint.binaryUpload
            ? await readFormUpload(req, endpoint.binaryUpload.query, options.bodyTimeouts)
            : {
                fields: { ...(query?.data as Record<string, unknown>), contentType: imageMediaTypeOf(req) },
                bytes: await readImageBody(req, options.bodyTimeouts),
              };
        body = { ...fields, bytes };
        fingerprint = { query: '', body: imageFingerprintBody(fields, bytes) };
        if (auth) requireFieldScopes(auth, endpoint, body);
      } else if (endpoint.body) {
        if (req.body === undefined) {
          throw validationFailed([
            { path: '', message: 'Expected a JSON object body (Content-Type: application/json)' },
          ]);
        }
        const parsed = endpoint.body.safeParse(req.body);
        if (!parsed.success) throw validationFailed(toValidationDetails(parsed.error));
        body = parsed.data;
        if (auth) requireFieldScopes(auth, endpoint, body);
        const { base64, ...fields } = body as { base64?: unknown };
        if (endpoint.binaryUpload && typeof base64 === 'string' && req.get('idempotency-key') !== undefined)
          fingerprint = { query: fingerprint.query, body: imageFingerprintBody(fields, decodeBase64(base64)) };
      }

      const ctx = {
        params: params?.data,
        query: binary ? undefined : query?.data,
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
        const path = idempotencyRoutePath(API_PREFIX, endpoint, params?.data as Record<string, unknown> | undefined);
        const now = options.now();
        const response = await executeIdempotently(
          options.db,
          {
            teamId: auth.teamId,
            apiKeyId: auth.keyId,
            method: 'POST',
            path,
            key: idempotencyKey,
            query: fingerprint.query,
            body: fingerprint.body,
          },
          now,
          (trx) => run(options.servicesFor(trx)),
          // An upload stores its bytes before its first query: its key is claimed before anything runs.
          { claimWithFirstWrite: firstWriteClaims && !binary },
        );
        if (response.replayed) res.set('Idempotent-Replayed', 'true');
        sendJson(req, res, response);
        if (Math.random() * PURGE_EVERY < 1) {
          purgeExpiredIdempotencyKeys(options.db, now).catch((error) =>
            req.log?.warn({ err: error }, 'idempotency purge failed'),
          );
        }
        return;
      }

      if (endpoint.response.contentType) {
        const { bytes, headers } = (await handler(ctx)) as BinaryBody;
        res.set({ ...headers, 'Content-Length': String(bytes.byteLength) }).status(endpoint.response.status);
        res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return;
      }
      const response = await run(options.services);
      sendJson(req, res, response);
    });
  }
}
