import { randomUUID } from 'node:crypto';
import {
  createKeyRateLimiter,
  DEFAULT_RATE_LIMIT,
  type KeyRateLimiter,
  type RateLimitConfig,
} from '../../src/rate-limit/key-rate-limiter.js';

/** The Redis the rate-limit suites share a limit on: REDIS_URL, else the local one. */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Runs `use` with two limiters (two instances) holding one limit on Redis, under a key prefix no other test
 * uses, and closes both after.
 */
export async function withTwoRedisLimiters(
  limit: Partial<RateLimitConfig>,
  use: (limiters: KeyRateLimiter[]) => Promise<void>,
): Promise<void> {
  const config = {
    ...DEFAULT_RATE_LIMIT,
    ...limit,
    store: 'redis' as const,
    redisUrl,
    redisKeyPrefix: randomUUID(),
  };
  const limiters = [await createKeyRateLimiter(config), await createKeyRateLimiter(config)];
  try {
    await use(limiters);
  } finally {
    await Promise.all(limiters.map((l) => l.close()));
  }
}
