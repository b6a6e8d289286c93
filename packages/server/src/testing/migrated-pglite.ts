import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { connectDatabase } from '../db/connect-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { migrationsFingerprint } from '../db/migrations/index.js';

/**
 * An in-memory PGlite with every migration applied. Migrating a fresh PGlite costs seconds, so the
 * first test process dumps a migrated template to the temp dir (keyed by the migrations' code) and
 * every later one loads it instead.
 */
export async function migratedPglite(): Promise<PGlite> {
  const template = join(tmpdir(), `vsf-pglite-template-${migrationsFingerprint()}.tar.gz`);
  if (existsSync(template)) {
    try {
      return new PGlite({ loadDataDir: new Blob([readFileSync(template)]) });
    } catch {
      // A damaged template is rebuilt below.
    }
  }
  const pglite = new PGlite();
  const database = connectDatabase({ pglite });
  await migrateToLatest(database.knex);
  const dump = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
  await database.close();
  const partial = `${template}.${process.pid}.tmp`;
  writeFileSync(partial, dump);
  renameSync(partial, template);
  return new PGlite({ loadDataDir: new Blob([dump]) });
}
