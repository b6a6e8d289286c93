import type { Knex } from 'knex';

/**
 * The per-key request counters of the `postgres` rate-limit store (rate-limiter-flexible's table, same
 * columns), as an UNLOGGED table. Every API request updates its key's row; as a logged table each update
 * waited for a WAL flush while holding the row lock, so all requests of one key queued behind the disk
 * (~300 requests/s per key in the throughput benchmark). Unlogged rows write no WAL; after a database
 * crash the table is emptied, which only resets the current windows' counts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create unlogged table if not exists rate_limits (
    key varchar(255) primary key,
    points integer not null default 0,
    expire bigint
  )`);
  // Databases where the limiter already created it as a logged table.
  await knex.raw('alter table rate_limits set unlogged');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limits set logged');
}
