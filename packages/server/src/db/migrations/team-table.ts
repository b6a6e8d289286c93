import type { Knex } from 'knex';

/** Every timestamp is `timestamptz(3)`: the API speaks milliseconds. */
export const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

export function timestamps(t: Knex.CreateTableBuilder): void {
  ts(t, 'created_at').notNullable();
  ts(t, 'updated_at').notNullable();
}

/**
 * A team-owned table, as every resource has one: `id`, `team_id`, the table's own columns (and indexes),
 * the timestamps, then the list index (`WHERE team_id = ? ORDER BY updated_at DESC, id DESC`), which a
 * table listed only under its parent goes without.
 */
export function createTeamTable(
  knex: Knex,
  table: string,
  columns: (t: Knex.CreateTableBuilder) => void,
  options: { listIndex?: boolean } = {},
): Knex.SchemaBuilder {
  return knex.schema.createTable(table, (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    columns(t);
    timestamps(t);
    if (options.listIndex !== false) t.index(['team_id', 'updated_at', 'id'], `${table}_team_updated_idx`);
  });
}
