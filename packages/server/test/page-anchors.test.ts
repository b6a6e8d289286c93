import fc from 'fast-check';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { carsTable } from '../src/repositories/tables.js';
import type { Executor } from '../src/repositories/team-scoped-table.js';
import type { TestServer } from '../src/testing/start-test-server.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { queriesDuring } from './support/queries-during.js';
import { teamServer } from './support/team-server.js';

// A walk through a list starts each page where the page before it ended (repositories/page-anchors.ts),
// instead of seeking past every earlier row. Whatever happens between two pages, each page must be
// exactly the rows `OFFSET` gives at that moment: writes through the API, raw SQL (hard deletes, equal
// `updated_at`s), and the events trigger turned off and on around a write.
const LIMIT = 4;
let server: TestServer;
// Each walk below makes a team of its own; the suite's team goes unused.
teamServer((team) => {
  ({ server } = team);
});

interface Team {
  teamId: string;
  api: ApiCaller;
  cars: string[];
}

async function teamWithCars(count: number): Promise<Team> {
  const { team, key } = await server.createTeamWithKey(['read:cars', 'write:cars']);
  const api = apiCaller(server.baseUrl, key);
  const cars: string[] = [];
  for (let i = 0; i < count; i++) cars.push(await createCar(api, i));
  return { teamId: team.id, api, cars };
}

async function createCar(api: ApiCaller, i: number): Promise<string> {
  const res = await api('POST', '/cars', { body: { year: 2000 + (i % 20), make: 'Make', model: `M${i}` } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The page as `OFFSET` gives it now: what the API must answer. */
async function truth(teamId: string, page: number, updatedAfter?: string): Promise<string[]> {
  const query = server.db('cars').where({ team_id: teamId });
  if (updatedAfter) query.where('updated_at', '>=', updatedAfter);
  const rows = await query
    .orderBy([
      { column: 'updated_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset((page - 1) * LIMIT)
    .limit(LIMIT)
    .select('id');
  return rows.map((row: { id: string }) => row.id);
}

async function listed(api: ApiCaller, page: number, updatedAfter?: string): Promise<string[]> {
  const query: Record<string, string> = { page: String(page), limit: String(LIMIT) };
  if (updatedAfter) query.updatedAfter = updatedAfter;
  const res = await api('GET', '/cars', { query });
  expect(res.status).toBe(200);
  return res.body.data.map((car: { id: string }) => car.id);
}

/** The SQL the server's database handle runs while `work` does. */
async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
  return (await queriesDuring(server, work)).map((query) => query.sql);
}

type Step =
  | { kind: 'page'; page: number; since: boolean }
  | { kind: 'create' }
  | { kind: 'patch'; car: number }
  | { kind: 'delete'; car: number }
  | { kind: 'hardDelete'; car: number }
  | { kind: 'tie'; car: number; with: number }
  | { kind: 'triggerOff'; car: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('page' as const),
      page: fc.integer({ min: 1, max: 9 }),
      since: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'create' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('patch' as const), car: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), car: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hardDelete' as const), car: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tie' as const), car: fc.nat(), with: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('triggerOff' as const), car: fc.nat() }) },
);

describe('walking a list page after page', () => {
  it('reads each next page from where the last one ended, and answers what OFFSET does', async () => {
    const { teamId, api } = await teamWithCars(LIMIT * 6);
    const statements = await statementsDuring(async () => {
      for (let page = 1; page <= 7; page++) expect(await listed(api, page)).toEqual(await truth(teamId, page));
    });
    const anchored = statements.filter((sql) => sql.includes('left join lateral'));
    // Pages 2 to 7 start at an anchor (the 7th is empty: the team has six pages).
    expect(anchored).toHaveLength(6);
  });

  it('answers what OFFSET does whatever is written between two pages', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        const team = await teamWithCars(LIMIT * 5);
        const { teamId, api, cars } = team;
        const since = (await server.db('cars').where({ team_id: teamId }).orderBy('updated_at').first('updated_at'))
          ?.updated_at as Date;
        // A walk mostly goes on to the next page; a step's page is taken as an offset from the last one.
        let last = 0;
        for (const s of steps) {
          const car = (n: number) => cars[n % cars.length] as string;
          switch (s.kind) {
            case 'page': {
              const page = s.page <= 6 ? last + 1 : s.page - 6;
              last = page > 8 ? 0 : page;
              const after = s.since ? new Date(since.getTime() + 1).toISOString() : undefined;
              expect(await listed(api, page, after)).toEqual(await truth(teamId, page, after));
              break;
            }
            case 'create':
              cars.push(await createCar(api, cars.length));
              break;
            case 'patch':
              await api('PATCH', `/cars/${car(s.car)}`, { body: { color: `c${s.car}` } });
              break;
            case 'delete':
              await api('DELETE', `/cars/${car(s.car)}`);
              break;
            case 'hardDelete':
              await server
                .db('cars')
                .where({ team_id: teamId, id: car(s.car) })
                .delete();
              break;
            case 'tie':
              // Equal `updated_at`s down to the microsecond: only `id` orders them (unless hard deleted).
              await server.db.raw(
                'update cars set updated_at = coalesce((select updated_at from cars where id = ?), updated_at) where team_id = ? and id = ?',
                [car(s.with), teamId, car(s.car)],
              );
              break;
            case 'triggerOff':
              // In one transaction: files sharing the PostgreSQL database never see the trigger off.
              await server.db.transaction(async (trx) => {
                await trx.raw('alter table cars disable trigger cars_record_events');
                await trx('cars')
                  .where({ team_id: teamId, id: car(s.car) })
                  .update({ updated_at: new Date() });
                await trx.raw('alter table cars enable trigger cars_record_events');
              });
              break;
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it('uses no anchor inside a transaction, which sees its own writes before they move the version', async () => {
    const { teamId } = await teamWithCars(LIMIT * 3);
    const list = (db: Executor, page: number) =>
      carsTable.list(db, teamId, { page, limit: LIMIT, unfiltered: true }).then((r) => r.records.map((c) => c.id));
    // Outside any transaction: page 1 leaves an anchor for page 2.
    await list(server.db, 1);
    await server.db
      .transaction(async (trx) => {
        // Page 1's first car moves to the end: uncommitted, so the team's version has not moved.
        const [first] = await trx('cars')
          .where({ team_id: teamId })
          .orderBy([
            { column: 'updated_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(1)
          .select('id');
        await trx('cars')
          .where({ id: first.id })
          .update({ updated_at: new Date('2001-01-01T00:00:00Z') });
        const inside = await trx('cars')
          .where({ team_id: teamId })
          .orderBy([
            { column: 'updated_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .offset(LIMIT)
          .limit(LIMIT)
          .select('id');
        expect(await list(trx, 2)).toEqual(inside.map((row: { id: string }) => row.id));
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await list(server.db, 2)).toEqual(await truth(teamId, 2));
  });
});

describe('a page nearer the end of the list than its start', () => {
  interface PlanNode {
    'Node Type': string;
    'Relation Name'?: string;
    'Actual Rows': number;
    'Actual Loops': number;
    Plans?: PlanNode[];
  }
  const carRowsRead = (node: PlanNode): number =>
    (node['Relation Name'] === 'cars' ? node['Actual Rows'] * node['Actual Loops'] : 0) +
    (node.Plans ?? []).reduce((sum, child) => sum + carRowsRead(child), 0);

  /** The index entries and rows of `cars` the page's statement read, as EXPLAIN ANALYZE counts them. */
  async function rowsReadFor(api: ApiCaller, page: number): Promise<{ ids: string[]; read: number }> {
    let ids: string[] = [];
    const seen = await queriesDuring(server, async () => {
      ids = await listed(api, page);
    });
    const pageStatement = seen.find((q) => q.sql.includes('cross join lateral'));
    if (!pageStatement) throw new Error(`no seek among ${seen.map((q) => q.sql).join('\n')}`);
    // The driver's SQL numbers its parameters; knex's raw takes them in order as `?`.
    const order: Knex.RawBinding[] = [];
    const sql = pageStatement.sql.replace(/\$(\d+)/g, (_, n: string) => {
      order.push(pageStatement.bindings[Number(n) - 1] as Knex.RawBinding);
      return '?';
    });
    // As PostgreSQL plans it for a big team: on a few dozen rows it may rather sort the whole team, which
    // reads every row whichever end the statement seeks from.
    const rows = await server.db.transaction(async (trx) => {
      await trx.raw('set local enable_sort = off');
      await trx.raw('set local enable_seqscan = off');
      return (await trx.raw(`explain (analyze, format json) ${sql}`, order)).rows;
    });
    const [{ Plan }] = rows[0]['QUERY PLAN'] as [{ Plan: PlanNode }];
    return { ids, read: carRowsRead(Plan) };
  }

  it('is sought from the end, and is what OFFSET gives, down to a partial last page and past it', async () => {
    // 26 cars: pages 5 to 7 (offsets 16 to 24) are nearer the end; page 8 is past it.
    const { teamId, api } = await teamWithCars(LIMIT * 6 + 2);
    for (const page of [8, 7, 6, 5, 4, 3, 2]) {
      // Read backwards, no page has an anchor before it: each is sought.
      const { ids, read } = await rowsReadFor(api, page);
      expect(ids).toEqual(await truth(teamId, page));
      const offset = (page - 1) * LIMIT;
      const nearer = Math.min(offset, Math.max(0, 26 - 1 - offset));
      // The seek's keys from the nearer end, and the page's own rows (past the end: none).
      expect({ page, read }).toEqual({ page, read: page === 8 ? 0 : nearer + 1 + ids.length });
    }
  });

  it('starts from the end rather than from an anchor further away (page 1 leaves one for page 2)', async () => {
    const { teamId, api } = await teamWithCars(LIMIT * 6 + 2);
    for (const page of [7, 6, 5]) {
      expect(await listed(api, 1)).toEqual(await truth(teamId, 1));
      // Anchored at page 2, page 7 would skip 20 keys; from the end it skips 1.
      const { ids, read } = await rowsReadFor(api, page);
      expect(ids).toEqual(await truth(teamId, page));
      const offset = (page - 1) * LIMIT;
      expect({ page, read }).toEqual({ page, read: 26 - 1 - offset + 1 + ids.length });
    }
  });

  it('counts the rows a transaction wrote and not yet committed, as OFFSET inside it does', async () => {
    const { teamId, cars } = await teamWithCars(LIMIT * 4);
    const ids = (db: Executor, page: number) =>
      carsTable.list(db, teamId, { page, limit: LIMIT, unfiltered: true }).then((r) => r.records.map((c) => c.id));
    const offsetIn = async (db: Executor, page: number) =>
      (
        await db('cars')
          .where({ team_id: teamId })
          .orderBy([
            { column: 'updated_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .offset((page - 1) * LIMIT)
          .limit(LIMIT)
          .select('id')
      ).map((row: { id: string }) => row.id);
    await server.db
      .transaction(async (trx) => {
        // Three rows out at the end (the oldest) and one in at the start: every later page shifts.
        await trx('cars').whereIn('id', cars.slice(0, 3)).delete();
        await trx('cars').insert({ ...(await trx('cars').where({ id: cars[5] }).first()), id: crypto.randomUUID() });
        for (const page of [4, 3, 2, 5]) expect(await ids(trx, page)).toEqual(await offsetIn(trx, page));
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    for (const page of [4, 3]) expect(await ids(server.db, page)).toEqual(await truth(teamId, page));
  });
});
