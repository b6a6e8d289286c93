import { connectDatabase, type Database } from '../../src/db/connect-database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migratedPglite } from '../../src/testing/migrated-pglite.js';

/** Whether the suites run on PostgreSQL (`TEST_DATABASE_URL`) rather than embedded PGlite. */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** The engine's name, for suite titles: `postgres` or `pglite`. */
export const engineName = onPostgres ? 'postgres' : 'pglite';

/** A migrated database on the suite's engine: `TEST_DATABASE_URL`'s PostgreSQL, else an in-memory PGlite. */
export async function openTestDatabase(): Promise<Database> {
  const database = onPostgres
    ? connectDatabase({ databaseUrl: process.env.TEST_DATABASE_URL })
    : connectDatabase({ pglite: await migratedPglite() });
  await migrateToLatest(database.knex);
  return database;
}
