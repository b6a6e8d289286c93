import type { Knex } from 'knex';
import { COUNTED_TABLES } from './023-team-row-counts.js';
import { recordEventFunction } from './record-event-function.js';
import { recordTeamEvents } from './resource-table.js';

/**
 * The `events` extension's transactional outbox. Every insert, update and delete of a team's record appends
 * one row to `team_events` in the transaction that made it, with the next cursor of the team's feed, the
 * action (`created`, `updated`, `soft_deleted` when `deleted_at` became set, `deleted`) and the row as
 * written (the last one, for a delete: which resource of a shared table it was, and when it last changed).
 *
 * Triggers rather than the services, so every write path (special operations, raw SQL) is recorded. They
 * are constraint triggers deferred to commit, so the team's cursor row is locked only from commit to its
 * end: cursors are handed out in commit order (a reader that has seen cursor n has seen every event below
 * it, none can appear later), and the lock, taken after every other lock of the transaction, cannot join a
 * deadlock. A change of a team deleted in the same transaction records nothing: it has no one to tell.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table team_event_heads (
      team_id uuid primary key,
      last_cursor bigint not null default 0,
      pruned_through bigint not null default 0
    )`);
  await knex.raw(`
    create table team_events (
      team_id uuid not null,
      cursor bigint not null,
      id uuid not null default gen_random_uuid(),
      table_name text not null,
      action text not null,
      record_id uuid not null,
      record jsonb,
      created_at timestamptz not null default clock_timestamp(),
      primary key (team_id, cursor)
    )`);
  // BRIN: retention scans by age, and events arrive in time order; a btree cost every write a second index insert.
  await knex.raw('create index team_events_created_at_idx on team_events using brin (created_at)');
  await knex.raw(recordEventFunction('create'));
  for (const table of COUNTED_TABLES) await recordTeamEvents(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of COUNTED_TABLES) await knex.raw(`drop trigger if exists ${table}_record_events on ${table}`);
  await knex.raw('drop function if exists vsf_record_event()');
  await knex.schema.dropTableIfExists('team_events');
  await knex.schema.dropTableIfExists('team_event_heads');
}
