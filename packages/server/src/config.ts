import { join } from 'node:path';
import { DEFAULT_EVENTS_RETENTION_DAYS } from '@vsf/contract';
import type { BodyTimeouts } from './http/body-timeouts.js';
import { type TrustProxy, trustProxyFromEnv } from './http/trust-proxy.js';
import { type KeyCacheOptions, keyCacheFromEnv } from './keys/verified-key-cache.js';
import { DEFAULT_OAUTH_LIFETIMES, type OAuthLifetimes } from './oauth/oauth-provider.js';
import { type MessagingConfig, messagingFromEnv } from './providers/messaging/messaging-config.js';
import { type RateLimitConfig, rateLimitFromEnv } from './rate-limit/key-rate-limiter.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './webhooks/webhook-options.js';

export interface ServerConfig {
  port: number;
  host: string;
  /** A `postgres://` URL selects PostgreSQL; otherwise the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** PGlite directory, or `memory://` for a throwaway database. */
  dataDir: string;
  /** Enables the admin API (`/admin/v1`) when set. */
  adminToken: string | undefined;
  /** Where media bytes are stored; in memory when the database is. */
  mediaDir: string | undefined;
  logLevel: string;
  rateLimit: RateLimitConfig;
  /** Verified API keys kept in memory (`VSF_KEY_CACHE_SIZE`, `VSF_KEY_CACHE_TTL_MS`). */
  keyCache: KeyCacheOptions;
  /** `VSF_DEMO`: create the demo team on a brand-new database; unset decides by engine (see wantsDemoTeam). */
  demo: boolean | undefined;
  /** Which proxies may name the client through forwarding headers (`VSF_TRUST_PROXY`). */
  trustProxy: TrustProxy;
  /** Which providers deliver email and SMS; the local outbox unless configured. */
  messaging: MessagingConfig;
  /** Days the events feed keeps each change (`VSF_EVENTS_RETENTION_DAYS`). */
  eventsRetentionDays: number;
  /** Webhook deliveries: `VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK`, and the timings (fixed but for tests). */
  webhooks: WebhookOptions;
  /** How long request bodies may take; the defaults (body-timeouts.ts) when absent (tests shorten them). */
  bodyTimeouts?: BodyTimeouts | undefined;
  /**
   * `VSF_PUBLIC_URL`: the origin clients reach this server at (behind a proxy or load balancer, its
   * https address). The assistant connector's OAuth issuer and the resource its tokens are bound to; the
   * address the server listens on when unset.
   */
  publicUrl?: string | undefined;
  /** The assistant connector's token and code lifetimes (`VSF_ACCESS_TOKEN_SECONDS`, `VSF_REFRESH_TOKEN_DAYS`). */
  oauthLifetimes?: OAuthLifetimes | undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL; unset it to use the embedded database');
  }
  const dataDir = env.VSF_DATA_DIR ?? '.vsf/data';
  const adminToken = env.VSF_ADMIN_TOKEN?.trim() || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new Error('VSF_ADMIN_TOKEN must be at least 16 characters long');
  }
  return {
    port,
    // Loopback unless told otherwise: a first `pnpm start` must not put an all-scope demo key on the network.
    // Containers set HOST=0.0.0.0.
    host: env.HOST?.trim() || '127.0.0.1',
    databaseUrl,
    dataDir,
    adminToken,
    // Beside the PGlite directory, never inside it (that one is PostgreSQL's own PGDATA).
    mediaDir: env.VSF_MEDIA_DIR ?? (dataDir === 'memory://' ? undefined : join(dataDir, '..', 'media')),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    rateLimit: rateLimitFromEnv(env, databaseUrl !== undefined),
    keyCache: keyCacheFromEnv(env),
    trustProxy: trustProxyFromEnv(env.VSF_TRUST_PROXY),
    demo: booleanFromEnv(env, 'VSF_DEMO'),
    messaging: messagingFromEnv(env),
    eventsRetentionDays: retentionDaysFromEnv(env.VSF_EVENTS_RETENTION_DAYS),
    webhooks: {
      ...DEFAULT_WEBHOOK_OPTIONS,
      allowHttpLoopback: booleanFromEnv(env, 'VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK') ?? false,
    },
    publicUrl: publicUrlFromEnv(env.VSF_PUBLIC_URL),
    oauthLifetimes: oauthLifetimesFromEnv(env),
  };
}

/** Whole numbers in a range, or the default when unset: a typo must stop the start, not become NaN. */
function boundedInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oauthLifetimesFromEnv(env: NodeJS.ProcessEnv): OAuthLifetimes {
  return {
    ...DEFAULT_OAUTH_LIFETIMES,
    // A minute at least (a call must outlive its token's check); a day at most: refresh tokens are for longer.
    accessTokenSeconds: boundedInteger(
      env,
      'VSF_ACCESS_TOKEN_SECONDS',
      DEFAULT_OAUTH_LIFETIMES.accessTokenSeconds,
      60,
      86_400,
    ),
    refreshTokenSeconds:
      boundedInteger(env, 'VSF_REFRESH_TOKEN_DAYS', DEFAULT_OAUTH_LIFETIMES.refreshTokenSeconds / 86_400, 1, 365) *
      86_400,
  };
}

function publicUrlFromEnv(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`VSF_PUBLIC_URL must be a URL such as https://vsf.example.com, got "${value}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(
      `VSF_PUBLIC_URL must be an http(s) origin without a path, such as https://vsf.example.com; got "${value}"`,
    );
  }
  return url.origin;
}

function retentionDaysFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_EVENTS_RETENTION_DAYS;
  const days = Number(value);
  // A day at least: shorter would drop events a follower restarted after a night's outage still needs.
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new Error(`VSF_EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "${value}"`);
  }
  return days;
}

function booleanFromEnv(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return undefined;
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['0', 'false', 'no'].includes(value)) return false;
  throw new Error(`${name} must be 1 or 0 (true or false), got "${env[name]}"`);
}
