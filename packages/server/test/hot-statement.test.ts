import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { HotStatement, StatementCache } from '../src/repositories/hot-statement.js';
import { engineName, openTestDatabase } from './support/test-database.js';

// The request path's fixed statements bypass knex's builder: they must bind like it, run inside a
// transaction when given one, and give the pool its connection back whatever happens.
let database: Database;
const echo = new HotStatement('select ?::text as a, ?::int + 1 as b');

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe(`HotStatement (${engineName})`, () => {
  it('binds values, never splices them, and runs again on the same connection', async () => {
    const tricky = "it's ? $1 -- not sql";
    for (let run = 0; run < 3; run++) {
      expect(await echo.rows(database.knex, [tricky, 41])).toEqual([{ a: tricky, b: 42 }]);
    }
  });

  it("runs on a transaction's own connection, so it sees and is undone with the transaction's writes", async () => {
    const team = new HotStatement('select name from teams where id = ?');
    const id = crypto.randomUUID();
    await database.knex
      .transaction(async (trx) => {
        await trx('teams').insert({ id, name: 'Hot', created_at: new Date(), updated_at: new Date() });
        expect(await team.rows(trx, [id])).toEqual([{ name: 'Hot' }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await team.rows(database.knex, [id])).toEqual([]);
  });

  it('gives the connection back when the statement fails', async () => {
    const failing = new HotStatement('select 1 / ?::int as x');
    for (let run = 0; run < 12; run++)
      await expect(failing.rows(database.knex, [0])).rejects.toThrow(/division by zero/);
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'hands pg a named Query of its own, so pg has no config object to copy on every run',
    async () => {
      const submitted = vi.spyOn(pg.Client.prototype, 'query');
      try {
        expect(await echo.rows(database.knex, ['q', 1])).toEqual([{ a: 'q', b: 2 }]);
        const [query] = submitted.mock.calls[0] ?? [];
        expect(query).toBeInstanceOf(pg.Query);
        expect(query).toMatchObject({ name: expect.stringMatching(/^vsf_[0-9a-f]{24}$/), values: ['q', 1] });
      } finally {
        submitted.mockRestore();
      }
    },
  );

  it('keeps a bounded number of texts, and past the bound prepares nothing on the connection', async () => {
    const cache = new StatementCache(2);
    const text = (n: number) => () => `select ${n}::int as n, ?::text as t /* cache-bound */`;
    await database.knex.transaction(async (trx) => {
      for (let n = 0; n < 5; n++) expect(await cache.get(`k${n}`, text(n)).rows(trx, ['x'])).toEqual([{ n, t: 'x' }]);
      expect(cache.get('k1', text(1))).toBe(cache.get('k1', text(1)));
      expect(cache.get('k4', text(4))).not.toBe(cache.get('k4', text(4)));
      if (process.env.TEST_DATABASE_URL) {
        const { rows } = await trx.raw(
          "select count(*)::int as n from pg_prepared_statements where statement like '%cache-bound%'",
        );
        expect(rows[0].n).toBe(2);
      }
    });
  });
});
