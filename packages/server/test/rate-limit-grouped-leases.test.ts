import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { groupedPostgresPenalty } from '../src/rate-limit/grouped-penalty.js';
import { queriesOn } from './support/queries-during.js';
import { engineName, openTestDatabase } from './support/test-database.js';

// 1 000 idle followers of 200 keys each lease their key's points once a window, at the same moments: one
// upsert per key was 200 statements a minute (issue #34). Leases falling due together go in one statement,
// with rate-limiter-flexible's per-row semantics (a window that ended restarts, else the lease adds).
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** The statements `work` sends to rate_limits. */
const statementsDuring = async (work: () => Promise<unknown>) =>
  (await queriesOn(database.knex, work)).map((query) => query.sql).filter((sql) => sql.includes('rate_limits'));

describe(`grouped rate-limit leases (${engineName})`, () => {
  it('leases of many keys due at once cost one statement, each counted on its own row', async () => {
    const prefix = `test_${randomUUID().slice(0, 8)}`;
    const penalty = groupedPostgresPenalty(database.knex, prefix, 60_000);
    const ids = Array.from({ length: 20 }, (_, n) => `key-${n}`);
    let answers: Awaited<ReturnType<typeof penalty>>[] = [];
    const sent = await statementsDuring(async () => {
      answers = await Promise.all(ids.map((id, n) => penalty(id, n + 1)));
    });
    expect(sent).toHaveLength(1);
    answers.forEach((answer, n) => {
      expect(answer.consumedPoints).toBe(n + 1);
      expect(answer.isFirstInDuration).toBe(true);
      expect(answer.msBeforeNext).toBeGreaterThan(59_000);
      expect(answer.msBeforeNext).toBeLessThanOrEqual(60_000);
    });
    // A second lease in the same window adds to the counter; the first of a key after its window restarts.
    await database
      .knex('rate_limits')
      .where({ key: `${prefix}:key-1` })
      .update({ expire: Date.now() - 1 });
    const [again, restarted] = await Promise.all([penalty('key-0', 5), penalty('key-1', 7)]);
    expect(again).toMatchObject({ consumedPoints: 6, isFirstInDuration: false });
    expect(restarted).toMatchObject({ consumedPoints: 7, isFirstInDuration: true });
    const rows = await database.knex('rate_limits').whereIn('key', [`${prefix}:key-0`, `${prefix}:key-1`]);
    expect(Object.fromEntries(rows.map((row: { key: string; points: number }) => [row.key, row.points]))).toEqual({
      [`${prefix}:key-0`]: 6,
      [`${prefix}:key-1`]: 7,
    });
  });

  it('a lease asked while a group is under way goes in the next, not in a statement of its own each', async () => {
    const penalty = groupedPostgresPenalty(database.knex, `test_${randomUUID().slice(0, 8)}`, 60_000);
    const sent = await statementsDuring(async () => {
      const first = penalty('a', 1);
      // Queued behind the first statement: they go together once it is answered.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([first, penalty('b', 1), penalty('c', 1), penalty('d', 1)]);
    });
    expect(sent).toHaveLength(2);
  });
});
