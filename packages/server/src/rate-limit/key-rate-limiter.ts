import type { Response } from 'express';
import type { Knex } from 'knex';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { ApiHttpError } from '../errors/api-http-error.js';

export interface RateLimitConfig {
  /** Requests each API key may make per window. */
  points: number;
  windowSeconds: number;
  /** `memory` for one process (the embedded default); `postgres` shares counts across instances. */
  store: 'memory' | 'postgres';
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { points: 1200, windowSeconds: 60, store: 'memory' };

export interface KeyRateLimiter {
  readonly config: RateLimitConfig;
  /** Counts one request of `keyId`, sets the `RateLimit-*` headers, and throws 429 once over the limit. */
  consume(keyId: string, res: Response): Promise<void>;
}

export async function createKeyRateLimiter(config: RateLimitConfig, db?: Knex): Promise<KeyRateLimiter> {
  const options = { points: config.points, duration: config.windowSeconds, keyPrefix: 'vsf_api_key' };
  let limiter: RateLimiterAbstract;
  if (config.store === 'postgres') {
    if (!db) throw new Error('The postgres rate-limit store needs the PostgreSQL database (DATABASE_URL)');
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const created: RateLimiterAbstract = new RateLimiterPostgres(
        { ...options, storeClient: db, storeType: 'knex', tableName: 'rate_limits' },
        (error?: Error) => (error ? reject(error) : resolve(created)),
      );
    });
  } else {
    limiter = new RateLimiterMemory(options);
  }

  const setHeaders = (res: Response, state: RateLimiterRes) => {
    res.set({
      'RateLimit-Limit': String(config.points),
      'RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
      'RateLimit-Reset': String(Math.ceil(state.msBeforeNext / 1000)),
    });
  };

  return {
    config,
    async consume(keyId, res) {
      try {
        setHeaders(res, await limiter.consume(keyId));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        setHeaders(res, rejection);
        const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        throw new ApiHttpError(
          429,
          'rate_limited',
          `Rate limit of ${config.points} requests per ${config.windowSeconds} s exceeded; retry after ${retryAfter} s`,
          null,
          { 'Retry-After': retryAfter },
        );
      }
    },
  };
}

export function rateLimitFromEnv(env: NodeJS.ProcessEnv, hasPostgres: boolean): RateLimitConfig {
  const points = Number(env.VSF_RATE_LIMIT ?? DEFAULT_RATE_LIMIT.points);
  const windowSeconds = Number(env.VSF_RATE_LIMIT_WINDOW ?? DEFAULT_RATE_LIMIT.windowSeconds);
  if (!Number.isInteger(points) || points < 1)
    throw new Error('VSF_RATE_LIMIT must be a positive integer (requests per window)');
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new Error('VSF_RATE_LIMIT_WINDOW must be a positive integer (seconds)');
  const store = env.VSF_RATE_LIMIT_STORE ?? (hasPostgres ? 'postgres' : 'memory');
  if (store !== 'memory' && store !== 'postgres') throw new Error('VSF_RATE_LIMIT_STORE must be memory or postgres');
  if (store === 'postgres' && !hasPostgres) throw new Error('VSF_RATE_LIMIT_STORE=postgres needs DATABASE_URL');
  return { points, windowSeconds, store };
}
