import type { Knex } from 'knex';
import { type DeclaredResource, declaredColumns } from './resource-columns.js';
import { createTeamTable } from './team-table.js';

/**
 * Keeps the team's row count of `table` (migration 023's functions), so its unfiltered list answers the
 * exact `total` without a count(*); counts the rows already there.
 */
export async function countTeamRows(knex: Knex, table: string): Promise<void> {
  await knex.raw(`create trigger ${table}_count_inserts after insert on ${table}
      referencing new table as inserted_rows for each statement execute function vsf_count_inserted_rows()`);
  await knex.raw(`create trigger ${table}_count_deletes after delete on ${table}
      referencing old table as deleted_rows for each statement execute function vsf_count_deleted_rows()`);
  await knex.raw(`insert into team_row_count_deltas (team_id, table_name, delta)
      select team_id, '${table}', count(*) from ${table} group by team_id`);
}

/** Appends every change of `table`'s rows to the team's events feed at commit (migration 024's function). */
export async function recordTeamEvents(knex: Knex, table: string): Promise<void> {
  await knex.raw(`create constraint trigger ${table}_record_events after insert or update or delete on ${table}
      deferrable initially deferred for each row execute function vsf_record_event()`);
}

/**
 * The table of a new team resource, for migrations after 024: `createTeamTable`'s shape, with its row count
 * kept and its changes in the events feed, as every resource table has (tests check each one). A resource
 * declared with a field table needs nothing more than itself (`createResourceTable(knex, keyBoxes)`): its
 * table's name and columns come from the declaration.
 */
export async function createResourceTable(
  knex: Knex,
  resource: DeclaredResource,
  options?: { listIndex?: boolean },
): Promise<void>;
export async function createResourceTable(
  knex: Knex,
  table: string,
  columns: (t: Knex.CreateTableBuilder) => void,
  options?: { listIndex?: boolean },
): Promise<void>;
export async function createResourceTable(
  knex: Knex,
  tableOrResource: string | DeclaredResource,
  columnsOrOptions?: ((t: Knex.CreateTableBuilder) => void) | { listIndex?: boolean },
  maybeOptions: { listIndex?: boolean } = {},
): Promise<void> {
  const declared = typeof tableOrResource !== 'string';
  const table = declared ? tableOrResource.table : tableOrResource;
  const columns = declared
    ? declaredColumns(tableOrResource)
    : (columnsOrOptions as (t: Knex.CreateTableBuilder) => void);
  const options = (declared ? columnsOrOptions : maybeOptions) as { listIndex?: boolean } | undefined;
  await createTeamTable(knex, table, columns, options ?? {});
  await countTeamRows(knex, table);
  await recordTeamEvents(knex, table);
}
