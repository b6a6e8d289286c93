import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** The answer for one request: admitted or not, and what the `RateLimit-*` headers say. */
export interface PointDecision {
  allowed: boolean;
  /** Points left in the window (as far as this instance knows with leases, see leased-points.ts). */
  remaining: number;
  /** Milliseconds until the window ends. */
  msBeforeNext: number;
}

/** Takes one point of `id`'s window for a request. Rejects only for store failures, never for the limit. */
export type PointSource = (id: string) => Promise<PointDecision>;

/**
 * Every request counted in the store itself: one store operation per request. For the memory store (no
 * round trip, nothing to save) and for failed authentications (a cold path, where an exact count matters
 * more than a round trip).
 */
export function perRequestPoints(limiter: RateLimiterAbstract): PointSource {
  return async (id) => {
    try {
      const state = await limiter.consume(id);
      return { allowed: true, remaining: state.remainingPoints, msBeforeNext: state.msBeforeNext };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, remaining: 0, msBeforeNext: rejection.msBeforeNext };
    }
  };
}
