import type { Response } from 'express';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from 'rate-limiter-flexible';
import { ApiHttpError } from '../errors/api-http-error.js';
import { groupedPostgresPenalty, storePenalty } from './grouped-penalty.js';
import { DEFAULT_LEASE_MAX } from './lease-size.js';
import { leasedPoints } from './leased-points.js';
import { type PointDecision, type PointSource, perRequestPoints } from './point-source.js';

export interface RateLimitConfig {
  /** Requests each API key may make per window. */
  points: number;
  windowSeconds: number;
  /** Failed authentications (missing, unknown, malformed, revoked keys; wrong admin tokens) per client address per window. */
  failedAuthPoints: number;
  /**
   * `memory` for one process (the embedded default); `redis` (`REDIS_URL`) and `postgres` share counts
   * across instances.
   */
  store: 'memory' | 'postgres' | 'redis';
  /** `REDIS_URL`, for the `redis` store. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys (tests isolate runs with it). */
  redisKeyPrefix?: string | undefined;
  /**
   * With a shared store (`postgres`, `redis`), the most points of a key one instance leases in one round
   * trip (`VSF_RATE_LIMIT_LEASE`, default 32); 1 counts every request in the store. See leased-points.ts.
   */
  leaseMax?: number | undefined;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = {
  points: 1200,
  windowSeconds: 60,
  failedAuthPoints: 60,
  store: 'memory',
  leaseMax: DEFAULT_LEASE_MAX,
};

export interface KeyRateLimiter {
  readonly config: RateLimitConfig;
  /** Counts one request of `keyId`, sets the `RateLimit-*` headers, and throws 429 once over the limit. */
  consume(keyId: string, res: Response): Promise<void>;
  /**
   * Counts one failed authentication from `address` and sets its `RateLimit-*` headers; throws 429 once
   * the address is over its limit (the caller otherwise answers with the authentication error).
   */
  countFailedAuth(address: string, res: Response): Promise<void>;
  /**
   * Throws the 429 at once while `address` is over its failed-authentication limit, before any credential
   * is looked at: a right guess made then would otherwise still get through (an oracle for guessing).
   */
  refuseBlockedAddress(address: string): void;
  /** Closes the store's connection (Redis). */
  close(): Promise<void>;
}

async function createStore(
  config: RateLimitConfig,
  points: number,
  keyPrefix: string,
  db: Knex | undefined,
  redis: Redis | undefined,
): Promise<RateLimiterAbstract> {
  const options = { points, duration: config.windowSeconds, keyPrefix };
  if (config.store === 'redis' && redis) {
    // Redis unreachable: fail open to the next store down rather than refuse every request. On
    // PostgreSQL that store is shared, so the limit still holds across instances; on PGlite (one
    // process) it is this process's memory.
    const insuranceLimiter = db
      ? await createStore({ ...config, store: 'postgres' }, points, keyPrefix, db, undefined)
      : new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      keyPrefix: `${config.redisKeyPrefix ?? 'vsf'}:${keyPrefix}`,
      storeClient: redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter,
    });
  }
  if (config.store !== 'postgres') return new RateLimiterMemory(options);
  if (!db) throw new Error('The postgres rate-limit store needs the PostgreSQL database (DATABASE_URL)');
  // Both buckets share migration 020's table; their rows differ by key prefix.
  return new Promise<RateLimiterAbstract>((resolve, reject) => {
    const created: RateLimiterAbstract = new RateLimiterPostgres(
      { ...options, storeClient: db, storeType: 'knex', tableName: 'rate_limits' },
      (error?: Error) => (error ? reject(error) : resolve(created)),
    );
  });
}

/** One counted bucket: `RateLimit-*` headers on every answer, 429 `rate_limited` with `Retry-After` over it. */
function bucket(take: PointSource, points: number, windowSeconds: number, what: string) {
  const limit = String(points);
  // Node's own setHeader: Express's res.set(object) goes through its content-type handling for each one.
  const setHeaders = (res: Response, state: PointDecision) => {
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(Math.max(0, state.remaining)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(state.msBeforeNext / 1000)));
  };
  return async (id: string, res: Response) => {
    const state = await take(id);
    setHeaders(res, state);
    if (state.allowed) return;
    const retryAfter = String(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
    throw new ApiHttpError(
      429,
      'rate_limited',
      `Rate limit of ${points} ${what} per ${windowSeconds} s exceeded; retry after ${retryAfter} s`,
      null,
      { 'Retry-After': retryAfter },
    );
  };
}

/**
 * Fails fast while disconnected (no offline queue, one try per command) so a request falls back to the
 * insurance store at once instead of waiting; ioredis keeps reconnecting in the background.
 */
function connectRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  // Errors surface as fallbacks on the requests; without a listener ioredis would log each reconnect.
  redis.on('error', () => {});
  return redis;
}

function redisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    // A refused first connection is not worth waiting out: start on the fallback, switch when it is up.
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/** The key prefix of API keys' counters in the shared store. */
const KEY_PREFIX = 'vsf_api_key';

export async function createKeyRateLimiter(config: RateLimitConfig, db?: Knex): Promise<KeyRateLimiter> {
  if (config.store === 'redis' && !config.redisUrl) throw new Error('The redis rate-limit store needs REDIS_URL');
  const redis = config.store === 'redis' && config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  // Until Redis is ready every count goes to the fallback store, which on PGlite is this process's memory:
  // give it a moment at start so instances share counts from their first request.
  if (redis) await redisReady(redis, 2_000);
  const perKey = await createStore(config, config.points, KEY_PREFIX, db, redis);
  const perAddress = await createStore(config, config.failedAuthPoints, 'vsf_auth_failure', db, redis);
  // A shared store would cost every request a round trip before its own query: lease points in batches
  // instead. The memory store has no round trip to save. Failed authentications stay counted one by one:
  // they are not the path a working client takes, and a guessing client gets no batch to spend.
  const leaseMax = config.leaseMax ?? DEFAULT_LEASE_MAX;
  // On PostgreSQL the leases of keys falling due together go in one statement (many idle followers' keys
  // each lease once a window, at the same moments); Redis counts them one by one, off the database.
  const penalty =
    config.store === 'postgres' && db
      ? groupedPostgresPenalty(db, KEY_PREFIX, config.windowSeconds * 1000)
      : storePenalty(perKey);
  const takeKeyPoint =
    config.store === 'memory' || leaseMax <= 1
      ? perRequestPoints(perKey)
      : leasedPoints(perKey, config.points, leaseMax, penalty);
  return {
    config,
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
    consume: bucket(takeKeyPoint, config.points, config.windowSeconds, 'requests'),
    ...blockingAddresses(
      bucket(perRequestPoints(perAddress), config.failedAuthPoints, config.windowSeconds, FAILED_AUTH_WHAT),
      config,
    ),
  };
}

const FAILED_AUTH_WHAT = 'failed authentications from one address';
/** Addresses remembered as over the limit; past it the oldest are forgotten (they are counted in the store still). */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Remembers in this process each address the failed-authentication count refused, until its window
 * ends, so every later attempt from it is refused before its credential is checked: no round trip to a
 * shared store on the path of working clients. With several instances, each learns of a block at its
 * own next failure from the address, so a guesser gets at most one more check per instance.
 */
function blockingAddresses(count: (address: string, res: Response) => Promise<void>, config: RateLimitConfig) {
  const blockedUntil = new Map<string, number>();
  const refusal = (msLeft: number) => {
    const retryAfter = String(Math.max(1, Math.ceil(msLeft / 1000)));
    return new ApiHttpError(
      429,
      'rate_limited',
      `Rate limit of ${config.failedAuthPoints} ${FAILED_AUTH_WHAT} per ${config.windowSeconds} s exceeded; retry after ${retryAfter} s`,
      null,
      {
        'Retry-After': retryAfter,
        'RateLimit-Limit': String(config.failedAuthPoints),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': retryAfter,
      },
    );
  };
  return {
    async countFailedAuth(address: string, res: Response) {
      try {
        await count(address, res);
      } catch (error) {
        if (error instanceof ApiHttpError && error.status === 429) {
          if (blockedUntil.size >= MAX_BLOCKED_ADDRESSES)
            blockedUntil.delete(blockedUntil.keys().next().value as string);
          blockedUntil.set(address, Date.now() + Number(error.headers['Retry-After'] ?? 1) * 1000);
        }
        throw error;
      }
    },
    refuseBlockedAddress(address: string) {
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      if (until <= Date.now()) blockedUntil.delete(address);
      else throw refusal(until - Date.now());
    },
  };
}

const positiveInteger = (env: NodeJS.ProcessEnv, name: string, fallback: number, meaning: string) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer (${meaning})`);
  return value;
};

export function rateLimitFromEnv(env: NodeJS.ProcessEnv, hasPostgres: boolean): RateLimitConfig {
  const points = positiveInteger(env, 'VSF_RATE_LIMIT', DEFAULT_RATE_LIMIT.points, 'requests per window');
  const windowSeconds = positiveInteger(env, 'VSF_RATE_LIMIT_WINDOW', DEFAULT_RATE_LIMIT.windowSeconds, 'seconds');
  const failedAuthPoints = positiveInteger(
    env,
    'VSF_AUTH_FAILURE_LIMIT',
    DEFAULT_RATE_LIMIT.failedAuthPoints,
    'failed authentications per client address per window',
  );
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  const store = env.VSF_RATE_LIMIT_STORE ?? (redisUrl ? 'redis' : hasPostgres ? 'postgres' : 'memory');
  if (store !== 'memory' && store !== 'postgres' && store !== 'redis') {
    throw new Error('VSF_RATE_LIMIT_STORE must be memory, postgres or redis');
  }
  if (store === 'postgres' && !hasPostgres) throw new Error('VSF_RATE_LIMIT_STORE=postgres needs DATABASE_URL');
  if (store === 'redis' && !redisUrl) throw new Error('VSF_RATE_LIMIT_STORE=redis needs REDIS_URL');
  const leaseMax = positiveInteger(
    env,
    'VSF_RATE_LIMIT_LEASE',
    DEFAULT_LEASE_MAX,
    'most points of a key one instance leases from a shared store at a time; 1 counts every request there',
  );
  return { points, windowSeconds, failedAuthPoints, store, redisUrl, leaseMax };
}
