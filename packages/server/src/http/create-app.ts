import {
  adminEndpoints,
  apiEndpoints,
  buildOpenApiDocument,
  type EndpointDefinition,
  EXTENSIONS_HEADER,
  SERVER_EXTENSIONS,
} from '@vsf/contract';
import express, { type Express } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import serverPackage from '../../package.json' with { type: 'json' };
import type { VerifiedKeyCache } from '../keys/verified-key-cache.js';
import { mcpEndpoint } from '../mcp/mcp-endpoint.js';
import { type BlobStore, MemoryBlobStore } from '../media/blob-store.js';
import type { PublicFetchDeps } from '../media/fetch-public-image.js';
import { connectorAuth } from '../oauth/connector-auth.js';
import { DEFAULT_OAUTH_LIFETIMES, type OAuthLifetimes } from '../oauth/oauth-provider.js';
import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { createMessagingProviders, OUTBOX_MESSAGING } from '../providers/messaging/messaging-config.js';
import { OutboxSocialProvider } from '../providers/social/outbox-social-provider.js';
import type { SocialProvider } from '../providers/social/social-provider.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { createLogger } from '../runtime/logger.js';
import type { EventsOptions } from '../services/events-service.js';
import { createServices, type Services } from '../services/index.js';
import type { WebhookOptions } from '../webhooks/webhook-options.js';
import { adminPage } from './admin-page/admin-page.js';
import { apiOnlyApp } from './api-only-app.js';
import { bindEndpoints } from './bind-endpoints.js';
import { guardUnclaimedBodies } from './body-guard.js';
import { type BodyTimeouts, DEFAULT_BODY_TIMEOUTS } from './body-timeouts.js';
import { docsPage } from './docs-page.js';
import { errorHandler, routeNotFound } from './error-handler.js';
import { adminHandlers } from './handlers/admin-handlers.js';
import { apiHandlers } from './handlers/api-handlers.js';
import { mountHealthRoutes } from './health-routes.js';
import { oneLayer } from './one-layer.js';
import { requestLog } from './request-log.js';
import { requireHost } from './require-host.js';
import { securityHeaders } from './security-headers.js';
import type { TrustProxy } from './trust-proxy.js';
import { weakEtag } from './weak-etag.js';

export interface AppDeps {
  db: Knex;
  adminToken?: string | undefined;
  logger?: Logger;
  /** Injectable clock for tests; defaults to the system clock. */
  now?: () => Date;
  /** Where media bytes go; in memory when absent. */
  blobs?: BlobStore;
  /** The network `sourceUrl` photos are fetched through (tests stub it). */
  fetchDeps?: PublicFetchDeps;
  /** Where social posts are published; the local outbox (no network) when absent. */
  socialProvider?: SocialProvider;
  /** Per-key request limit; none when absent (tests and benchmarks of other layers). */
  rateLimiter?: KeyRateLimiter;
  /** Email and SMS delivery; the local outbox when absent. */
  messaging?: MessagingProviders;
  /** Which proxies' `X-Forwarded-For` names the client (`VSF_TRUST_PROXY`); none when absent. */
  trustProxy?: TrustProxy;
  /** Verified API keys kept in memory (invalidated by the admin services and the key-change listener). */
  keyCache?: VerifiedKeyCache;
  /** The events feed's retention and shutdown signal; 30 days when absent. */
  events?: EventsOptions;
  /** Webhook deliveries' timings and `VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK`; the defaults when absent. */
  webhooks?: WebhookOptions;
  /** DNS for webhook deliveries; the system resolver when absent (tests stub it). */
  webhookResolve?: (hostname: string) => Promise<string[]>;
  /** Reports whether migrations have finished; `/healthz` answers 503 until then. */
  isReady?: () => boolean;
  /** How long request bodies may take (body-timeouts.ts); the defaults when absent. */
  bodyTimeouts?: BodyTimeouts;
  /** The assistant connector's token and code lifetimes; an hour for access tokens when absent. */
  oauthLifetimes?: OAuthLifetimes;
}

export interface VsfApp extends Express {
  /** `demoApiKey`: the key `vsf-server start` created on a brand-new database, pre-filled in `/docs`. */
  locals: Express['locals'] & {
    services: Services;
    demoApiKey?: string;
    /** The origin clients reach the server at (`VSF_PUBLIC_URL`, else where it listens): the OAuth issuer. */
    publicUrl?: string;
  };
}

/** Told to assistants in MCP's `serverInfo`: the package's own version. */
const SERVER_VERSION = serverPackage.version;

/** Builds the HTTP application without listening, so tests and benchmarks can mount it. */
export function createApp(deps: AppDeps): VsfApp {
  const logger = deps.logger ?? createLogger(undefined, { secrets: [deps.adminToken] });
  const serviceDeps = {
    db: deps.db,
    logger,
    now: deps.now ?? (() => new Date()),
    blobs: deps.blobs ?? new MemoryBlobStore(),
    fetchDeps: deps.fetchDeps,
    messaging: deps.messaging ?? createMessagingProviders(OUTBOX_MESSAGING, deps.logger),
    social: deps.socialProvider ?? new OutboxSocialProvider(),
    keyCache: deps.keyCache,
    events: deps.events,
    webhooks: deps.webhooks,
    webhookResolve: deps.webhookResolve,
  };
  const services = createServices(serviceDeps);
  // Every resource made now rather than on first use: one whose declaration its table cannot serve stops the start.
  Object.values(services.resources);
  const bindOptions = {
    services,
    servicesFor: (db: Knex | Knex.Transaction) => createServices({ ...serviceDeps, db: db as Knex }),
    db: deps.db,
    now: serviceDeps.now,
    rateLimiter: deps.rateLimiter,
    bodyTimeouts: deps.bodyTimeouts ?? DEFAULT_BODY_TIMEOUTS,
  };
  const redaction = { secrets: [deps.adminToken] };
  const app = express() as VsfApp;
  app.locals.services = services;
  app.disable('x-powered-by');
  // Express's default ETag, computed without copying the body first (weak-etag.ts).
  app.set('etag fn', weakEtag);
  // Forwarding headers name the client (req.ip, counted for failed authentication) only when configured.
  app.set('trust proxy', deps.trustProxy ?? false);
  // Method, path and status are what an operator reads; headers would only repeat noise (and credentials).
  app.use(
    oneLayer(
      requestLog(logger, redaction),
      securityHeaders(),
      requireHost,
      guardUnclaimedBodies(bindOptions.bodyTimeouts.unclaimedMs),
    ),
  );
  // No global body parser: bindEndpoints reads a JSON body after authentication (read-json-body.ts).

  let openApiDocument: unknown;
  app.get('/api/v1/openapi.json', (_req, res) => {
    openApiDocument ??= buildOpenApiDocument('v1');
    res.json(openApiDocument);
  });

  // The API is mounted before the routes beside it (health, the assistant connector, docs), none of which
  // answers under /api: each layer Express walks past costs every API request (a router entered and left
  // for /mcp alone cost a read a few microseconds).
  // Media bytes live beside /api/v1 (DESIGN.md), at their endpoint's own base, but answer to the same keys.
  const [besideV1, underV1] = partition(apiEndpoints, (endpoint) => endpoint.basePath !== undefined);
  const api = express.Router();
  // Every API response, errors included, names the extensions this server implements (DESIGN.md).
  const extensions = SERVER_EXTENSIONS.join(', ');
  api.use((_req, res, next) => {
    res.setHeader(EXTENSIONS_HEADER, extensions);
    next();
  });
  bindEndpoints(api, underV1, apiHandlers, bindOptions);
  app.use('/api/v1', api);
  const media = express.Router();
  bindEndpoints(media, besideV1, apiHandlers, bindOptions);
  app.use('/api', media);

  const apiApp = apiOnlyApp([
    ['/api/v1', api],
    ['/api', media],
  ]);

  mountHealthRoutes(app, { db: deps.db, isReady: deps.isReady });

  // The assistant connector: OAuth 2.1 at the root (as the MCP authorization spec asks), MCP at /mcp.
  const publicUrl = () => app.locals.publicUrl;
  app.use(
    connectorAuth({
      db: deps.db,
      now: serviceDeps.now,
      services,
      limiter: deps.rateLimiter,
      publicUrl,
      lifetimes: deps.oauthLifetimes ?? DEFAULT_OAUTH_LIFETIMES,
    }),
  );
  app.use(
    mcpEndpoint({
      services,
      limiter: deps.rateLimiter,
      publicUrl,
      bodyTimeouts: bindOptions.bodyTimeouts,
      api: () => apiApp,
      version: SERVER_VERSION,
    }),
  );

  app.use('/docs', docsPage({ openApiUrl: '/api/v1/openapi.json', demoApiKey: () => app.locals.demoApiKey }));

  const admin = express.Router();
  bindEndpoints(admin, adminEndpoints, adminHandlers, { ...bindOptions, adminToken: deps.adminToken });
  app.use('/admin/v1', admin);
  app.use('/admin', adminPage({ adminEnabled: Boolean(deps.adminToken) }));

  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}

/** Splits an endpoint map in two by a test, keeping the keys. */
function partition<Es extends Record<string, EndpointDefinition>>(
  endpoints: Es,
  test: (endpoint: EndpointDefinition) => boolean,
): [Partial<Es>, Partial<Es>] {
  const entries = Object.entries(endpoints);
  const pick = (keep: boolean) => Object.fromEntries(entries.filter(([, e]) => test(e) === keep)) as Partial<Es>;
  return [pick(true), pick(false)];
}
