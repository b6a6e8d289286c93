import type { AdminKeyCreated, AdminTeam } from '@vsf/contract';
import { DEFAULT_EVENTS_RETENTION_DAYS } from '@vsf/contract';
import type { Knex } from 'knex';
import type { ServerConfig } from '../config.js';
import type { TrustProxy } from '../http/trust-proxy.js';
import { DEFAULT_KEY_CACHE } from '../keys/verified-key-cache.js';
import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { type MessagingConfig, OUTBOX_MESSAGING } from '../providers/messaging/messaging-config.js';
import { DEFAULT_RATE_LIMIT, type RateLimitConfig } from '../rate-limit/key-rate-limiter.js';
import { startServer } from '../runtime/start-server.js';
import type { Services } from '../services/index.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from '../webhooks/webhook-options.js';
import { migratedPglite } from './migrated-pglite.js';

export interface TestServerOptions {
  /** A `postgres://` URL; defaults to `TEST_DATABASE_URL` when `useEnvDatabase` is set, else in-memory PGlite. */
  databaseUrl?: string | undefined;
  /** Use `TEST_DATABASE_URL` when it is set (the default), so suites run on both engines. */
  useEnvDatabase?: boolean;
  /** Per-key limit; generous by default so suites never hit it by accident. */
  rateLimit?: Partial<RateLimitConfig>;
  /** Email and SMS providers; the local outbox by default. */
  messaging?: MessagingConfig;
  /** `VSF_TRUST_PROXY`; none by default. */
  trustProxy?: TrustProxy;
  /**
   * Webhook deliveries. The background dispatcher is off unless `dispatch: true`: suites that compare a
   * team's rows before and after a request see no writes of their own; webhook tests turn it on or run a
   * pass with `services.webhookDispatcher.runOnce()`.
   */
  webhooks?: Partial<WebhookOptions>;
  /** `VSF_PUBLIC_URL`: instances behind one address share it (the connector's OAuth issuer and resource). */
  publicUrl?: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>/api/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:<port>/admin/v1` */
  adminBaseUrl: string;
  origin: string;
  adminToken: string;
  engine: 'pglite' | 'postgres';
  /** The server's own database handle, for assertions on what was (not) stored. */
  db: Knex;
  /** The server's email and SMS providers (the outbox ones keep their deliveries for inspection). */
  messaging: MessagingProviders;
  /** The server's services, for tests that run at once what a timer would (the events feed's retention). */
  services: Services;
  createTeam(name?: string): Promise<AdminTeam>;
  createKey(
    teamId: string,
    scopes: readonly string[],
    options?: { name?: string; expiresAt?: string | null },
  ): Promise<AdminKeyCreated>;
  /** A new team and a key with the given scopes, in one call. */
  createTeamWithKey(scopes: readonly string[]): Promise<{ team: AdminTeam; key: string; keyId: string }>;
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A server configuration for tests: a free loopback port, a throwaway database, silent logs, a limit no
 * suite reaches by accident and the outbox for messages. Override what a test is about.
 */
export function testServerConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: 'memory://',
    adminToken: undefined,
    mediaDir: undefined,
    logLevel: 'silent',
    rateLimit: { ...DEFAULT_RATE_LIMIT, points: 100_000, failedAuthPoints: 100_000 },
    keyCache: DEFAULT_KEY_CACHE,
    trustProxy: false,
    demo: undefined,
    messaging: OUTBOX_MESSAGING,
    eventsRetentionDays: DEFAULT_EVENTS_RETENTION_DAYS,
    webhooks: { ...DEFAULT_WEBHOOK_OPTIONS, dispatch: false },
    ...overrides,
  };
}

/**
 * Starts a real reference server on a free loopback port for tests of this and other packages. Every
 * test creates its own teams, so files can share one PostgreSQL database without seeing each other.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const adminToken = `test-admin-token-${Math.random().toString(36).slice(2)}`;
  const databaseUrl =
    options.databaseUrl ?? (options.useEnvDatabase === false ? undefined : process.env.TEST_DATABASE_URL);
  const running = await startServer(
    testServerConfig({
      databaseUrl,
      adminToken,
      rateLimit: { ...DEFAULT_RATE_LIMIT, points: 100_000, failedAuthPoints: 100_000, ...options.rateLimit },
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
      messaging: options.messaging ?? OUTBOX_MESSAGING,
      webhooks: { ...DEFAULT_WEBHOOK_OPTIONS, dispatch: false, ...options.webhooks },
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    }),
    { bootstrapDemo: false, ...(databaseUrl ? {} : { pglite: await migratedPglite() }) },
  );
  const origin = running.url.replace('localhost', '127.0.0.1');
  const adminBaseUrl = `${origin}/admin/v1`;

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${adminBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const adminJson = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await admin(method, path, body);
    const json = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`admin ${method} ${path} failed: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  const createTeam = (name = `Team ${Math.random().toString(36).slice(2, 8)}`) =>
    adminJson<AdminTeam>('POST', '/teams', { name });
  const createKey: TestServer['createKey'] = (teamId, scopes, opts = {}) =>
    adminJson<AdminKeyCreated>('POST', `/teams/${teamId}/keys`, { name: opts.name ?? 'test key', scopes, ...opts });

  return {
    baseUrl: `${origin}/api/v1`,
    adminBaseUrl,
    origin,
    adminToken,
    engine: running.database.engine,
    db: running.database.knex,
    messaging: running.app.locals.services.resources['communicationThreads.messages'].providers,
    services: running.app.locals.services,
    createTeam,
    createKey,
    async createTeamWithKey(scopes) {
      const team = await createTeam();
      const key = await createKey(team.id, scopes);
      return { team, key: key.key, keyId: key.id };
    },
    admin,
    close: running.close,
  };
}
