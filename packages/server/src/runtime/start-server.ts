import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { type ChangeListener, listenForChanges, listenInProcess } from '../db/change-listener.js';
import { connectDatabase, type Database, type PgliteInstance } from '../db/connect-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { TEAM_EVENTS_CHANNEL } from '../db/migrations/031-team-event-notify.js';
import { holdContinue } from '../http/body-guard.js';
import { DEFAULT_BODY_TIMEOUTS } from '../http/body-timeouts.js';
import { answerClientErrors } from '../http/client-errors.js';
import { createApp, type VsfApp } from '../http/create-app.js';
import { followKeyChanges, KEY_CHANGES_CHANNEL } from '../keys/key-change-listener.js';
import { VerifiedKeyCache } from '../keys/verified-key-cache.js';
import { FileBlobStore, MemoryBlobStore } from '../media/blob-store.js';
import { S3BlobStore, s3OptionsFromEnv } from '../media/s3-blob-store.js';
import { createMessagingProviders } from '../providers/messaging/messaging-config.js';
import { createKeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { EventInboxDrain } from '../services/event-inbox-drain.js';
import { FeedWake } from '../services/feed-wake.js';
import { bootstrapDemoTeam, type DemoCredentials } from './bootstrap-demo-team.js';
import { createLogger } from './logger.js';

export interface RunningServer {
  app: VsfApp;
  server: Server;
  database: Database;
  url: string;
  demo: DemoCredentials | undefined;
  /** True when the database has no team at all after start (and no demo team was created). */
  noTeams: boolean;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** An already-open PGlite to use instead of `config.dataDir` (tests pass a migrated template). */
  pglite?: PgliteInstance;
  bootstrapDemo?: boolean;
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel, { secrets: [config.adminToken] });
  const s3 = s3OptionsFromEnv(process.env);
  const s3Blobs = s3 ? new S3BlobStore(s3) : undefined;
  // A wrong bucket, endpoint or key stops the start, before the database is touched, not the first upload.
  await s3Blobs?.verifyBucket();
  const database = connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(options.pglite ? { pglite: options.pglite } : {}),
  });
  let ready = false;
  try {
    await migrateToLatest(database.knex);
    ready = true;
  } catch (error) {
    await database.close();
    throw error;
  }
  const rateLimiter = await createKeyRateLimiter(config.rateLimit, database.knex);
  const keyCache = new VerifiedKeyCache(config.keyCache);
  // One LISTEN connection per instance, however many requests wait: key changes and watched teams' commits.
  const channels = [KEY_CHANGES_CHANNEL, TEAM_EVENTS_CHANNEL];
  const listener: ChangeListener = database.pglite
    ? await listenInProcess(database.pglite, channels)
    : listenForChanges(config.databaseUrl as string, channels, {
        onError: (error) =>
          logger.warn(
            { err: error },
            'change listener down; reading keys from the database, polling waits each second',
          ),
      });
  // Several instances can share PostgreSQL: trust the cache only while hearing every key change. Embedded
  // PGlite is one process; listening there still catches changes made in SQL beside the services.
  if (keyCache.enabled && !database.pglite) followKeyChanges(listener, keyCache);
  else if (keyCache.enabled) listener.on(KEY_CHANGES_CHANNEL, (payload) => keyCache.applyMessage(payload));
  await listener.ready;
  const wake = new FeedWake(database.knex, listener);
  const blobs = s3Blobs ?? (config.mediaDir ? new FileBlobStore(config.mediaDir) : new MemoryBlobStore());
  // Aborted first on close: a long-polling events request answers instead of holding the shutdown.
  const stopping = new AbortController();
  const bodyTimeouts = config.bodyTimeouts ?? DEFAULT_BODY_TIMEOUTS;
  const app = createApp({
    db: database.knex,
    adminToken: config.adminToken,
    logger,
    rateLimiter,
    keyCache,
    trustProxy: config.trustProxy,
    blobs,
    messaging: createMessagingProviders(config.messaging, logger),
    events: { retentionDays: config.eventsRetentionDays, stopping: stopping.signal, wake },
    webhooks: config.webhooks,
    isReady: () => ready,
    bodyTimeouts,
    ...(config.oauthLifetimes ? { oauthLifetimes: config.oauthLifetimes } : {}),
  });
  const { webhookDispatcher } = app.locals.services;

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  // Only once listening: a start that fails (the port in use) must not use up the one-time demo key, which
  // a later start on the same database would then never show.
  const demo = options.bootstrapDemo ? await bootstrapDemoTeam(app.locals.services) : undefined;
  if (demo) app.locals.demoApiKey = demo.key;
  const noTeams = !demo && (await app.locals.services.teams.countTeams()) === 0;
  // Bodies have timeouts of their own (body-timeouts.ts), which answer with an ApiError; Node's whole-request
  // limit is only the backstop behind them. It used to be 30 s, which cut off every photo sent slower than
  // ~100 KB/s with a bare 408.
  server.requestTimeout = bodyTimeouts.deadlineMs + 60_000;
  server.headersTimeout = 15_000;
  holdContinue(server);
  answerClientErrors(server);
  // A request without Host is refused by the app, with an ApiError (require-host.ts), not by Node, bare.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.keepAliveTimeout = 5_000;
  // Every instance delivers: deliveries are leased one instance at a time, so they share the work.
  if (config.webhooks.dispatch) {
    webhookDispatcher.start((error) => logger.warn({ err: error }, 'webhook dispatcher pass failed; retrying'));
  }
  const inboxDrain = new EventInboxDrain(database.knex);
  inboxDrain.start((error) => logger.warn({ err: error }, 'numbering the events inbox failed; retrying'));
  const address = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  app.locals.publicUrl = config.publicUrl ?? url;

  // Responses still being worked on when close() is called. Without `Connection: close` on them,
  // a client's keep-alive socket (every SDK pools them) stays open after the last response and
  // server.close() waits out keepAliveTimeout, accepting new requests on it meanwhile.
  const inFlight = new Set<ServerResponse>();
  let shuttingDown = false;
  const noKeepAlive = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (shuttingDown) noKeepAlive(res);
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A response whose headers went out before the shutdown leaves an idle keep-alive socket.
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      shuttingDown = true;
      stopping.abort();
      for (const res of inFlight) noKeepAlive(res);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // Its last attempts end (a timeout at most) before the database they are recorded in closes.
      await webhookDispatcher.stop();
      await inboxDrain.stop();
      // Keys' last uses still gathering (no request waited for them) are written before the database closes.
      await app.locals.services.auth.flushLastUse();
      await listener.close();
      await rateLimiter.close();
      await database.close();
    })();
    return closing;
  };
  return { app, server, database, url, demo, noTeams, close };
}
