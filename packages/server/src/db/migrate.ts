import type { Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations/index.js';

/** Any fixed number: the advisory lock every vsf-server process takes around its migrations. */
const MIGRATION_LOCK = 0x76_73_66_6d; // "vsfm"

/**
 * Brings the schema up to date; safe to call from several processes at once. knex's own migration lock
 * covers running migrations but not creating its bookkeeping tables, so instances rolled out together
 * on a brand-new PostgreSQL database raced on `create table knex_migrations` and all but one crashed.
 * A session advisory lock, held on a connection of its own, makes them take turns; the later ones then
 * find nothing to do. PGlite is one process's database, so it needs none.
 */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  // Told by the connection rather than the configured client's name, which may be a class (connect-database.ts).
  const connection: unknown = await knex.client.acquireConnection();
  if (!(connection instanceof pg.Client)) {
    await knex.client.releaseConnection(connection);
    return latest(knex);
  }
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return await latest(knex);
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

async function latest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
