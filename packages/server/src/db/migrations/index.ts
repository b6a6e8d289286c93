import { createHash } from 'node:crypto';
import { recordColumns, standardResources } from '@vsf/contract';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { MIGRATIONS } from '../../generated/migrations.js';
import { createNotifyFunction, dropNotifyFunction, replaceNotifyBody } from './notify-triggers.js';
import { recordEventFunction } from './record-event-function.js';
import { addResourceColumns, declaredColumns } from './resource-columns.js';
import { countTeamRows, createResourceTable, recordTeamEvents } from './resource-table.js';
import { createTeamTable, timestamps, ts } from './team-table.js';

/**
 * Ordered migrations, shared by PGlite and PostgreSQL: every `NNN-name.ts` of this folder, listed by
 * `pnpm generate`. Append a file; never edit one that has shipped.
 */
const migrations = MIGRATIONS;

/** Serves migrations from code so they run the same from source (tsx, vitest) and from the built package. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name] as Knex.Migration,
};

/** Changes whenever any migration's code does: tests key their cached, migrated database on it. */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(migrations).sort()) {
    hash.update(`${name}\n${String(migrations[name]?.up)}\n`);
    // What a migration hands a shared helper to write (022's, 032's and 033's notify functions) is part of its code.
    for (const [key, value] of Object.entries(migrations[name] ?? {}))
      if (typeof value !== 'function') hash.update(`${key}=${JSON.stringify(value)}\n`);
  }
  // The shared table shape is part of every migration that calls it, and so is the SQL the helpers write.
  for (const helper of [
    createTeamTable,
    timestamps,
    ts,
    countTeamRows,
    recordTeamEvents,
    createResourceTable,
    createNotifyFunction,
    dropNotifyFunction,
    replaceNotifyBody,
    recordEventFunction,
    declaredColumns,
    addResourceColumns,
  ])
    hash.update(String(helper));
  // A migration that is one call on a declaration (`createResourceTable(knex, keyBoxes)`) changes with it.
  for (const resource of standardResources().values()) {
    const record = resource.endpoints.get?.response.schema as { shape?: { data?: z.ZodType } } | undefined;
    if (record?.shape?.data) hash.update(JSON.stringify(recordColumns(record.shape.data)));
  }
  return hash.digest('hex').slice(0, 16);
}
