import type { Knex } from 'knex';
import * as core from './001-core.js';
import * as idempotency from './010-idempotency.js';

/** Ordered migrations, shared by PGlite and PostgreSQL. Append; never edit one that has shipped. */
const migrations: Record<string, Knex.Migration> = {
  '001-core': core,
  '010-idempotency': idempotency,
};

/** Serves migrations from code so they run the same from source (tsx, vitest) and from the built package. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name] as Knex.Migration,
};
