import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { withTwoRedisLimiters } from '../../test/support/redis-limiters.js';
import type { ApiHttpError } from '../errors/api-http-error.js';
import { createKeyRateLimiter, DEFAULT_RATE_LIMIT, type KeyRateLimiter, rateLimitFromEnv } from './key-rate-limiter.js';

const fakeResponse = () => ({ setHeader: () => {} }) as unknown as Response;

/** How many of `n` concurrent requests of one key the limiters admit, spread round-robin over them. */
async function admitted(limiters: KeyRateLimiter[], n: number, id = 'key-1'): Promise<number> {
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => limiters[i % limiters.length]?.consume(id, fakeResponse())),
  );
  for (const o of outcomes) {
    if (o.status === 'rejected') expect((o.reason as ApiHttpError).status).toBe(429);
  }
  return outcomes.filter((o) => o.status === 'fulfilled').length;
}

describe('Redis rate-limit store', () => {
  it('shares one limit between two limiters (two instances) on the same Redis', async () => {
    await withTwoRedisLimiters({ points: 10 }, async (limiters) => {
      expect(await admitted(limiters, 40)).toBe(10);
    });
  });

  it('falls back to the next store while Redis is unreachable: still limited, never refused for the outage', async () => {
    const limiter = await createKeyRateLimiter({
      ...DEFAULT_RATE_LIMIT,
      points: 5,
      store: 'redis',
      redisUrl: 'redis://127.0.0.1:1',
    });
    try {
      expect(await admitted([limiter], 12)).toBe(5);
    } finally {
      await limiter.close();
    }
  });

  it('is chosen by REDIS_URL, and VSF_RATE_LIMIT_STORE=redis without it is a clear error', () => {
    expect(rateLimitFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }, true).store).toBe('redis');
    expect(rateLimitFromEnv({ REDIS_URL: 'redis://x', VSF_RATE_LIMIT_STORE: 'postgres' }, true).store).toBe('postgres');
    expect(() => rateLimitFromEnv({ VSF_RATE_LIMIT_STORE: 'redis' }, true)).toThrow(/needs REDIS_URL/);
    expect(() => rateLimitFromEnv({ REDIS_URL: 'http://x' }, true)).toThrow(/REDIS_URL must be/);
  });
});
