import type { Knex } from 'knex';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { GroupedRoundTrips } from '../keys/grouped-round-trips.js';

/** What a lease learns from the shared store: rate-limiter-flexible's `penalty` answer, the fields it reads. */
export interface PenaltyAnswer {
  /** The key's counter in the current window after adding the lease. */
  consumedPoints: number;
  msBeforeNext: number;
  /** The lease opened a new window. */
  isFirstInDuration: boolean;
}

/** Adds `points` to `id`'s counter in the shared store, atomically, and tells the new total. */
export type Penalty = (id: string, points: number) => Promise<PenaltyAnswer>;

/** The store's own `penalty`, one round trip per lease (Redis, or PostgreSQL without grouping). */
export const storePenalty =
  (store: RateLimiterAbstract): Penalty =>
  (id, points) =>
    store.penalty(id, points);

/**
 * Leases of several keys added to PostgreSQL's counters (migration 020's `rate_limits`, rate-limiter-flexible's
 * rows) in one statement: the keys whose lease falls due at the same time (group commit; a lease never waits
 * longer than it would alone). The statement is rate-limiter-flexible's upsert for many rows, each with its own
 * points: a window ended (`expire` passed) restarts at the lease, else the lease adds to the counter, atomically
 * per row, so what leased-points.ts proves of one key's leases holds for each key of a group.
 */
export function groupedPostgresPenalty(db: Knex, keyPrefix: string, windowMs: number): Penalty {
  const rows = new GroupedRoundTrips<string, number, PenaltyAnswer>(async (group) => {
    const now = Date.now();
    const leases = [...group].map(([id, points]) => ({ key: `${keyPrefix}:${id}`, points }));
    const result = await db.raw<{ rows: { key: string; points: number; expire: string | number | null }[] }>(
      `insert into rate_limits as r (key, points, expire)
         select v.key, v.points, ?::bigint from json_to_recordset(?::json) as v(key text, points integer)
       on conflict (key) do update set
         points = case when r.expire <= ?::bigint then excluded.points else r.points + excluded.points end,
         expire = case when r.expire <= ?::bigint then excluded.expire else r.expire end
       returning key, points, expire`,
      [now + windowMs, JSON.stringify(leases), now, now],
    );
    const answers = new Map<string, PenaltyAnswer>();
    const after = Date.now();
    for (const row of result.rows) {
      const id = row.key.slice(keyPrefix.length + 1);
      const points = group.get(id) ?? 0;
      answers.set(id, {
        consumedPoints: row.points,
        msBeforeNext: row.expire === null ? -1 : Math.max(Number(row.expire) - after, 0),
        isFirstInDuration: row.points === points,
      });
    }
    return answers;
  });
  return async (id, points) => {
    const answer = await rows.add(id, points);
    if (!answer) throw new Error(`rate_limits: no counter returned for ${id}`);
    return answer;
  };
}
