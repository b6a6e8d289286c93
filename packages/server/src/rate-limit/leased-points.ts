import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type Penalty, storePenalty } from './grouped-penalty.js';
import { leaseSize } from './lease-size.js';
import type { PointDecision, PointSource } from './point-source.js';

/** One key's points leased by this instance for the current window of the shared store. */
interface Lease {
  /** Leased points not yet spent here. */
  tokens: number;
  /**
   * When the shared window ends (ms since the epoch). Measured from before the round trip, so it is never
   * later than the store's own end: a point leased in one window is never spent in the next.
   */
  expiresAt: number;
  /** What the shared store had left after the last lease (other instances may have leased since). */
  sharedRemaining: number;
  /** The shared store is spent for this window: once `tokens` is 0, refuse without asking it. */
  exhausted: boolean;
  /** The round trip under way: the key's other requests here wait for it instead of starting their own. */
  pending: Promise<void> | undefined;
  /** Requests waiting on `pending`; the lease is sized to serve them too. */
  queued: number;
}

/**
 * Per-key points leased in batches from a store shared by all instances (PostgreSQL or Redis), so that
 * most requests are decided from this process's memory and only one in a batch costs a round trip.
 *
 * Why the limit still holds across instances: a lease adds its size to the key's shared counter in one
 * atomic operation (rate-limiter-flexible's `penalty`: an upsert, or Redis INCRBY) and gets the new total
 * back. The points granted are those the total had left before this lease, at most the size asked:
 * `min(size, limit - (total - size))`. Operations on one counter are serialised by the store, so the
 * grants of all instances together never exceed the limit, and a lease that asks for more than is left
 * gets the rest rather than nothing (the counter then reads above the limit, which only means "spent").
 * When every instance keeps receiving the key's requests they spend all they leased, so the limit is
 * reached exactly; an instance that stops receiving them leaves its unspent points unused until the
 * window ends (one lease's worth, up to two far from the limit, where the next is leased early).
 *
 * Requests over the limit are refused from memory too, until the window ends. `remaining` (the
 * `RateLimit-Remaining` header) is this instance's view, so approximate: the store's remaining at its last
 * lease plus its own unspent points. It leaves out other instances' unspent points (up to about 50 each)
 * and counts their leases only from its next lease on.
 */
export function leasedPoints(
  store: RateLimiterAbstract,
  points: number,
  maxLease: number,
  /** How a lease reaches the store: its own `penalty` by default; on PostgreSQL, grouped with other keys'. */
  penalty: Penalty = storePenalty(store),
): PointSource {
  const leases = new Map<string, Lease>();
  const windowMs = store.msDuration;
  let nextSweep = 0;

  const allowed = (lease: Lease, now: number): PointDecision => ({
    allowed: true,
    remaining: lease.sharedRemaining + lease.tokens,
    msBeforeNext: Math.max(0, lease.expiresAt - now),
  });
  const refused = (lease: Lease, now: number): PointDecision => ({
    allowed: false,
    remaining: 0,
    msBeforeNext: Math.max(0, lease.expiresAt - now),
  });

  /**
   * Forgets the leases of windows that ended a window ago or more, at most once a window, so keys seen once
   * do not stay for ever (one that ended since still sizes the key's first lease of the next window).
   */
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + windowMs;
    for (const [id, lease] of leases) if (!lease.pending && lease.expiresAt <= now - windowMs) leases.delete(id);
  };

  /**
   * What the store has left for the key, as far as this instance knows: in the current window, what its last
   * lease said; in the window after, what it said then (at the key's pace then, a fresh window has as much
   * left or more), so a key far from its limit starts each window with a full batch and one near it a small
   * one. A key seen here only once a window (an idle follower's long polls) used to lease 1 point,
   * then a batch: two round trips each window where one does. Unknown after a window with no lease here.
   */
  const knownRemaining = (lease: Lease, now: number) =>
    lease.expiresAt > now - windowMs ? lease.sharedRemaining : undefined;

  /**
   * One round trip to the shared store for `id`. For a request that found no point (`forRequest`), which
   * gets the first point it brings; or ahead of need (a refill, see below), adding to what is left.
   */
  const renew = async (id: string, lease: Lease, forRequest: boolean): Promise<PointDecision> => {
    const started = Date.now();
    const known = knownRemaining(lease, started);
    const size = leaseSize(known, lease.queued + (forRequest ? 1 : 0), maxLease);
    // One lease per key under way at a time (`pending`): a grouped penalty never sees a key twice in a group.
    const trip = penalty(id, size);
    // A store failure fails the waiters too, as it failed each request before leases.
    const pending = trip.then(() => {});
    pending.catch(() => {});
    lease.pending = pending;
    try {
      const { consumedPoints: total, msBeforeNext, isFirstInDuration } = await trip;
      const granted = Math.max(0, Math.min(size, points - (total - size)));
      const ends = started + Math.max(0, msBeforeNext);
      // Points left from an ended window are void; within one window both ends are lower bounds of the
      // store's, so the later is the closer.
      const sameWindow = !isFirstInDuration && lease.expiresAt > started;
      lease.tokens = (sameWindow ? lease.tokens : 0) + granted - (forRequest && granted > 0 ? 1 : 0);
      lease.expiresAt = sameWindow ? Math.max(lease.expiresAt, ends) : ends;
      lease.sharedRemaining = Math.max(0, points - total);
      lease.exhausted = total >= points;
      return granted > 0 || !forRequest ? allowed(lease, Date.now()) : refused(lease, Date.now());
    } finally {
      lease.pending = undefined;
    }
  };

  /**
   * Whether to lease the next batch before this one runs out, so that a busy key's requests do not all
   * stop for the round trip each time it does. Only far from the limit, where batches are full size: near
   * it an early batch could leave points idle here that another instance's requests need.
   */
  const refillEarly = (lease: Lease) =>
    maxLease > 1 &&
    !lease.exhausted &&
    lease.tokens < maxLease / 2 &&
    leaseSize(lease.sharedRemaining, 0, maxLease) === maxLease;

  return async (id) => {
    for (;;) {
      const now = Date.now();
      sweep(now);
      let lease = leases.get(id);
      if (!lease) {
        lease = { tokens: 0, expiresAt: 0, sharedRemaining: 0, exhausted: false, pending: undefined, queued: 0 };
        leases.set(id, lease);
      }
      const current = lease.expiresAt > now;
      if (current && lease.tokens > 0) {
        lease.tokens--;
        if (!lease.pending && refillEarly(lease)) renew(id, lease, false).catch(() => {});
        return allowed(lease, now);
      }
      if (lease.pending) {
        lease.queued++;
        try {
          await lease.pending;
        } finally {
          lease.queued--;
        }
        continue;
      }
      if (current && lease.exhausted) return refused(lease, now);
      return renew(id, lease, true);
    }
  };
}
