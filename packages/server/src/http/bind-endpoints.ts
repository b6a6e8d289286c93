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
import { type AuthContext, requireScopes } from '../services/auth-service.js';
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

/** How the request carries its content: JSON, or an image (raw bytes, or a multipart form) where the endpoint takes one. */
interface Upload {
  /** A multipart/form-data form with the image in its `file` part. */
  form: boolean;
  /** An image, raw or in a form (the `binary-upload` extension): no JSON body. */
  binary: boolean;
}

/** What an Idempotency-Key compares: the request's query string and body as sent. */
interface Fingerprint {
  query: string;
  body: unknown;
}

/**
 * Step 1: authenticate, count, check scopes, before looking at the request's content, so a refused or
 * over-limit request costs no body read, and a request refused for scope still counts.
 */
async function authenticate(req: Request, res: Response, endpoint: EndpointDefinition, options: BindOptions) {
  const auth =
    endpoint.surface === 'v1' ? await authenticateApiKey(req, res, options.services, options.rateLimiter) : undefined;
  if (auth) requireScopes(auth, endpoint.scopes);
  if (endpoint.surface === 'admin') await authenticateAdminToken(req, res, options.adminToken, options.rateLimiter);
  return auth;
}

function uploadOf(req: Request, endpoint: EndpointDefinition): Upload {
  const form = endpoint.binaryUpload !== undefined && isMultipartBody(req);
  return { form, binary: endpoint.binaryUpload !== undefined && (form || isImageBody(req)) };
}

/** Step 2: read a JSON body, only now: an unauthenticated or unauthorised caller never makes the server parse one. */
async function readBody(req: Request, endpoint: EndpointDefinition, upload: Upload, options: BindOptions) {
  if (!endpoint.body || upload.binary) return;
  req.body = await readJsonBody(
    req,
    options.bodyTimeouts,
    endpoint.binaryUpload &&
      `an image (Content-Type: image/*, or multipart/form-data with the image in a "${FILE_PART}" part: the binary-upload extension)`,
  );
}

/** Step 3: the path's ids; a malformed one can never name a record, so it is answered as an unknown one. */
function parseParams(req: Request, endpoint: EndpointDefinition) {
  const params = endpoint.params?.safeParse(req.params);
  if (params && !params.success) throw notFound(endpoint.resourceName ?? 'Record');
  return params?.data as Record<string, unknown> | undefined;
}

/** Step 4: the query, as the endpoint declares it (for a raw image, the body's other fields). */
function parseQuery(req: Request, endpoint: EndpointDefinition, upload: Upload) {
  const unsafe = [...malformedQueryEscapes(req.originalUrl), ...jsonSafetyProblems(req.query ?? {})];
  if (unsafe.length > 0) throw validationFailed(unsafe);
  const query = (upload.binary && !upload.form ? endpoint.binaryUpload?.query : endpoint.query)?.safeParse(
    req.query ?? {},
  );
  if (query && !query.success) throw validationFailed(toValidationDetails(query.error));
  if (!query && Object.keys(req.query ?? {}).length > 0) {
    throw validationFailed([{ path: '', message: `Unknown query parameters: ${Object.keys(req.query).join(', ')}` }]);
  }
  return query?.data as Record<string, unknown> | undefined;
}

/**
 * Step 5: the body, parsed, with its field scopes checked, and its fingerprint: the request as sent, but an
 * image as its fields and the bytes' digest, whether it came raw or as base64, so a retry may switch.
 */
async function parseBody(
  req: Request,
  endpoint: EndpointDefinition,
  upload: Upload,
  query: Record<string, unknown> | undefined,
  auth: AuthContext | undefined,
  options: BindOptions,
): Promise<{ body: unknown; fingerprint: Fingerprint }> {
  const queryString = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
  if (upload.binary && endpoint.binaryUpload) {
    const { fields, bytes } = upload.form
      ? await readFormUpload(req, endpoint.binaryUpload.query, options.bodyTimeouts)
      : {
          fields: { ...query, contentType: imageMediaTypeOf(req) },
          bytes: await readImageBody(req, options.bodyTimeouts),
        };
    const body = { ...fields, bytes };
    if (auth) requireFieldScopes(auth, endpoint, body);
    return { body, fingerprint: { query: '', body: imageFingerprintBody(fields, bytes) } };
  }
  const sent: Fingerprint = { query: queryString, body: req.body as unknown };
  if (!endpoint.body) return { body: undefined, fingerprint: sent };
  if (req.body === undefined) {
    throw validationFailed([{ path: '', message: 'Expected a JSON object body (Content-Type: application/json)' }]);
  }
  const parsed = endpoint.body.safeParse(req.body);
  if (!parsed.success) throw validationFailed(toValidationDetails(parsed.error));
  if (auth) requireFieldScopes(auth, endpoint, parsed.data);
  const { base64, ...fields } = parsed.data as { base64?: unknown };
  const inline = endpoint.binaryUpload && typeof base64 === 'string' && req.get('idempotency-key') !== undefined;
  return {
    body: parsed.data,
    fingerprint: inline ? { query: queryString, body: imageFingerprintBody(fields, decodeBase64(base64)) } : sent,
  };
}

/** Step 6: the handler's result as the response: its status, and a `Location` naming what a 201 created. */
async function respond(
  handler: Handler<EndpointDefinition>,
  endpoint: EndpointDefinition,
  ctx: HandlerContext<EndpointDefinition>,
) {
  const result = (await handler(ctx)) as { data?: { id?: unknown } };
  const headers: Record<string, string> = {};
  if (endpoint.response.status === 201 && typeof result?.data?.id === 'string') {
    headers.Location = `${ctx.req.baseUrl}${ctx.req.path}/${result.data.id}`.replace(/\/{2,}/g, '/');
  }
  return { status: endpoint.response.status, body: result as unknown, headers };
}

/**
 * Step 7, for a POST with an Idempotency-Key: the handler runs once per key, inside one transaction, and a
 * repeat is answered with the stored response.
 */
async function respondIdempotently(
  run: { handler: Handler<EndpointDefinition>; endpoint: EndpointDefinition; ctx: HandlerContext<EndpointDefinition> },
  request: { auth: AuthContext; key: string; fingerprint: Fingerprint; claimWithFirstWrite: boolean },
  options: BindOptions,
): Promise<void> {
  const { endpoint, ctx } = run;
  validateIdempotencyKey(request.key);
  const path = idempotencyRoutePath(API_PREFIX, endpoint, ctx.params as Record<string, unknown> | undefined);
  const now = options.now();
  const response = await executeIdempotently(
    options.db,
    {
      teamId: request.auth.teamId,
      apiKeyId: request.auth.keyId,
      method: 'POST',
      path,
      key: request.key,
      query: request.fingerprint.query,
      body: request.fingerprint.body,
    },
    now,
    (trx) => respond(run.handler, endpoint, { ...ctx, services: options.servicesFor(trx) }),
    { claimWithFirstWrite: request.claimWithFirstWrite },
  );
  if (response.replayed) ctx.res.set('Idempotent-Replayed', 'true');
  sendJson(ctx.req, ctx.res, response);
  if (Math.random() * PURGE_EVERY < 1) {
    purgeExpiredIdempotencyKeys(options.db, now).catch((error) =>
      ctx.req.log?.warn({ err: error }, 'idempotency purge failed'),
    );
  }
}

/** Bytes (`GET /api/media/{id}`): sent as they are, with the handler's headers. */
async function respondBinary(
  handler: Handler<EndpointDefinition>,
  endpoint: EndpointDefinition,
  ctx: HandlerContext<EndpointDefinition>,
) {
  const { bytes, headers } = (await handler(ctx)) as BinaryBody;
  ctx.res.set({ ...headers, 'Content-Length': String(bytes.byteLength) }).status(endpoint.response.status);
  ctx.res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * Mounts each contract endpoint on the router. Authentication, scopes, validation of params, query and
 * body, the success status and the `Location` header all happen here, once, for every endpoint, in the
 * named steps above.
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
      const auth = await authenticate(req, res, endpoint, options);
      const upload = uploadOf(req, endpoint);
      await readBody(req, endpoint, upload, options);
      const params = parseParams(req, endpoint);
      const query = parseQuery(req, endpoint, upload);
      const { body, fingerprint } = await parseBody(req, endpoint, upload, query, auth, options);
      const ctx = {
        params,
        query: upload.binary ? undefined : query,
        body,
        auth,
        services: options.services,
        req,
        res,
      } as HandlerContext<EndpointDefinition>;
      const key = req.get('idempotency-key');
      if (auth && endpoint.method === 'post' && key !== undefined) {
        // An upload stores its bytes before its first query: its key is claimed before anything runs.
        const claimWithFirstWrite = firstWriteClaims && !upload.binary;
        return respondIdempotently(
          { handler, endpoint, ctx },
          { auth, key, fingerprint, claimWithFirstWrite },
          options,
        );
      }
      if (endpoint.response.contentType) return respondBinary(handler, endpoint, ctx);
      sendJson(req, res, await respond(handler, endpoint, ctx));
    });
  }
}
