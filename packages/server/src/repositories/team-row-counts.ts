import type { Knex } from 'knex';
import type { Executor } from './executor.js';

/** Delta rows of one team and table past which a read folds them into one. */
const FOLD_AT = 64;

/**
 * A team's exact row count in a table, from the deltas the count triggers append (migration 023): a sum
 * over a few rows instead of `count(*)` over all of the team's. Past FOLD_AT deltas the read folds them
 * into one row in a single statement, which a concurrent writer's uncommitted delta survives untouched,
 * so the sum stays exact; a concurrent fold finds nothing left and adds a zero.
 */
export async function teamRowCount(db: Executor, teamId: string, table: string): Promise<number> {
  const row = (await db('team_row_count_deltas')
    .where({ team_id: teamId, table_name: table })
    .first(db.raw('count(*) as deltas'), db.raw('coalesce(sum(delta), 0) as total'))) as
    | { deltas: number | string; total: number | string }
    | undefined;
  if (Number(row?.deltas ?? 0) > FOLD_AT) {
    await db.raw(
      `with gone as (delete from team_row_count_deltas where team_id = ? and table_name = ? returning delta)
       insert into team_row_count_deltas (team_id, table_name, delta) select ?, ?, coalesce(sum(delta), 0) from gone`,
      [teamId, table, teamId, table],
    );
  }
  return Number(row?.total ?? 0);
}

/**
 * The same count as an SQL expression, for a statement that must see the rows and their count in one
 * snapshot (a page sought from the end of the list, team-scoped-table.ts).
 */
export function teamRowCountSql(db: Executor, teamId: string, table: string): Knex.Raw {
  return db.raw('(select coalesce(sum(delta), 0) from team_row_count_deltas where team_id = ? and table_name = ?)', [
    teamId,
    table,
  ]);
}
