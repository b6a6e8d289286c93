import { randomUUID } from 'node:crypto';
import knex from 'knex';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect-database.js';
import { migrateToLatest } from '../src/db/migrate.js';

// Instances rolled out together on a brand-new PostgreSQL database migrate at the same moment. Each must
// start: one applies the migrations, the others wait and then find nothing to do.
const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)('migrations run by several processes at once', () => {
  it('apply once on a brand-new database, and every caller succeeds', async () => {
    const name = `vsf_migrate_${randomUUID().replaceAll('-', '')}`;
    const server = knex({ client: 'pg', connection: databaseUrl as string });
    await server.raw(`create database ${name}`);
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    const databases = [0, 1, 2, 3].map(() => connectDatabase({ databaseUrl: url.toString() }));
    try {
      const applied = await Promise.all(databases.map((db) => migrateToLatest(db.knex)));
      const counts = applied.map((names) => names.length).sort((a, b) => a - b);
      expect(counts.slice(0, 3)).toEqual([0, 0, 0]);
      expect(counts[3]).toBeGreaterThan(0);
      const { rows } = await databases[0]!.knex.raw('select count(*)::int as n from knex_migrations');
      expect(rows[0].n).toBe(counts[3]);
    } finally {
      await Promise.all(databases.map((db) => db.close()));
      await server.raw(`drop database if exists ${name}`);
      await server.destroy();
    }
  }, 60_000);
});
