import type { Knex } from 'knex';
import { countTeamRows } from './resource-table.js';

/** Every team-owned table whose unfiltered list answers `total` from the counts below. */
export const COUNTED_TABLES = [
  'cars',
  'customers',
  'contacts',
  'locations',
  'event_types',
  'parking_zones',
  'parking_spots',
  'parking_assignments',
  'car_events',
  'media',
  'appointments',
  'appointment_types',
  'communication_threads',
  'communication_messages',
  'campaigns',
  'campaign_audiences',
  'campaign_sends',
  'campaign_content_steps',
  'templates',
  'forms',
  'form_submissions',
  'social_events',
  'social_event_rsvp_options',
  'social_event_invites',
  'social_event_rsvps',
  'social_accounts',
  'social_posts',
  'marketing_assets',
  'asset_folders',
] as const;

/**
 * A team's row count per table, kept by the database itself so a list's exact `total` needs no `count(*)`
 * over the team's rows. Statement triggers append one delta row per team and statement (never an update
 * of a shared counter row, so concurrent writers never wait on each other); a read sums the deltas and
 * folds them into one row when they pile up (team-row-counts.ts). Triggers rather than the services, so
 * every write path, raw SQL included, is counted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table team_row_count_deltas (
      team_id uuid not null,
      table_name text not null,
      delta bigint not null
    )`);
  await knex.raw('create index team_row_count_deltas_idx on team_row_count_deltas (team_id, table_name)');
  for (const [name, rows, sign] of [
    ['vsf_count_inserted_rows', 'inserted_rows', ''],
    ['vsf_count_deleted_rows', 'deleted_rows', '-'],
  ]) {
    await knex.raw(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        insert into team_row_count_deltas (team_id, table_name, delta)
          select team_id, tg_table_name, ${sign}count(*) from ${rows} group by team_id;
        return null;
      end $$`);
  }
  for (const table of COUNTED_TABLES) await countTeamRows(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of COUNTED_TABLES) {
    await knex.raw(`drop trigger if exists ${table}_count_inserts on ${table}`);
    await knex.raw(`drop trigger if exists ${table}_count_deletes on ${table}`);
  }
  await knex.raw('drop function if exists vsf_count_inserted_rows()');
  await knex.raw('drop function if exists vsf_count_deleted_rows()');
  await knex.schema.dropTableIfExists('team_row_count_deltas');
}
