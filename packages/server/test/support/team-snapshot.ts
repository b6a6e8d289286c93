import type { Knex } from 'knex';
import { sequenceEvents } from '../../src/repositories/team-events.js';

/** One table's rows for a team, as the database prints them: their count and a digest of their text. */
export interface TableDigest {
  rows: number;
  md5: string;
}

// The row-count deltas are derived bookkeeping (a read may fold them); team-row-counts.test.ts checks them.
// The events feed (team_events, team_event_heads, team_event_inbox) is in: a refused request must record no
// change. Both readers number the team's inbox first (migration 034), so the server's own numbering of what
// a request before them wrote moves nothing between two reads.
const BOOKKEEPING = new Set(['team_row_count_deltas']);
const teamTables = new WeakMap<Knex, Promise<string[]>>();

function tablesOf(db: Knex): Promise<string[]> {
  let tables = teamTables.get(db);
  if (!tables) {
    tables = db('information_schema.columns')
      .where({ column_name: 'team_id', table_schema: 'public' })
      .select('table_name')
      .then((rows: { table_name: string }[]) =>
        rows
          .map((r) => r.table_name)
          .filter((t) => !BOOKKEEPING.has(t))
          .sort(),
      );
    teamTables.set(db, tables);
  }
  return tables;
}

/** A table's key order: a team's one row (its events feed head) has no id of its own. */
const orderOf = (table: string) => (table === 'team_event_heads' ? 'team_id' : 'id');

/** The team's rows themselves, table by table (but key last-use times), for suites that compare rows. */
export async function teamRows(db: Knex, teamId: string): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  await sequenceEvents(db, [teamId]);
  for (const table of await tablesOf(db)) {
    if (table !== 'api_keys') rows[table] = await db(table).where({ team_id: teamId }).orderBy(orderOf(table));
  }
  return rows;
}

/**
 * Every team-owned table's rows for one team, for "changed nothing" assertions, read in one statement:
 * each row's text (`row::text`, every column) in key order, digested in the database. Suites call this
 * before and after each refused request (the fuzz suite thousands of times), where a query per table and
 * the rows shipped to the test cost more than the requests under test. A mismatch names the table.
 */
export async function snapshotTeam(db: Knex, teamId: string): Promise<Record<string, TableDigest>> {
  const tables = await tablesOf(db);
  await sequenceEvents(db, [teamId]);
  const selects = tables.map((table) => {
    return db.raw(
      `select ?::text as t, count(*)::int as n, md5(coalesce(string_agg(x::text, E'\\n' order by x.??), '')) as d from ?? x where x.team_id = ?`,
      [table, orderOf(table), table, teamId],
    );
  });
  const sql = selects.map((s) => s.toQuery()).join(' union all ');
  const result = (await db.raw(sql)) as { rows: { t: string; n: number; d: string }[] };
  return Object.fromEntries(result.rows.map((r) => [r.t, { rows: r.n, md5: r.d }]));
}

/** The team's tables other than bookkeeping that reads may touch (key last-use times). */
export async function snapshotTeamData(db: Knex, teamId: string) {
  const { api_keys: _keys, ...rest } = await snapshotTeam(db, teamId);
  return rest;
}
