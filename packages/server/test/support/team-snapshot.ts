import type { Knex } from 'knex';

/** Every row of every team-owned table for one team, for "changed nothing" assertions. */
export async function snapshotTeam(db: Knex, teamId: string): Promise<Record<string, unknown[]>> {
  const tables = (await db('information_schema.columns')
    .where({ column_name: 'team_id', table_schema: 'public' })
    .select('table_name')) as { table_name: string }[];
  const snapshot: Record<string, unknown[]> = {};
  // The row-count deltas are derived bookkeeping (a read may fold them); team-row-counts.test.ts checks them.
  // The events feed (team_events, team_event_heads) is in: a refused request must record no change.
  const data = tables.filter((t) => t.table_name !== 'team_row_count_deltas');
  for (const { table_name } of data.sort((a, b) => a.table_name.localeCompare(b.table_name))) {
    // A team's one row (its events feed head) has no id of its own.
    const order = table_name === 'team_event_heads' ? 'team_id' : 'id';
    snapshot[table_name] = await db(table_name).where({ team_id: teamId }).orderBy(order);
  }
  return snapshot;
}

/** Rows of the team's tables other than bookkeeping that reads may touch (key last-use times). */
export async function snapshotTeamData(db: Knex, teamId: string) {
  const { api_keys: _keys, ...rest } = await snapshotTeam(db, teamId);
  return rest;
}
