import type { Knex } from 'knex';
import { migrationSource } from './migrations/index.js';

/** Brings the schema up to date; safe to call from several processes (knex holds a migration lock). */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
