import { connectDatabase, migrateToLatest } from '@vsf/server';
import type { Knex } from 'knex';
import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  /** URL of the fresh database the benchmarks own. */
  url: string;
  /** The server's knex over it, migrated with the server's own migrations. */
  knex: Knex;
  /** A URL whose connections use `schema` (for sinks, which must not share the server's tables). */
  schemaUrl(schema: string): string;
  /** Drops and recreates an empty schema (a sink's target). */
  freshSchema(schema: string): Promise<void>;
  drop(): Promise<void>;
}

/**
 * Creates a brand-new database beside the one in the URL (never touching the test data in it), migrates
 * it with the server's migrations, and drops it when the benchmarks end.
 */
export async function createBenchDatabase(
  baseUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_DATABASE_URL,
): Promise<BenchDatabase> {
  const name = `vsf_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach PostgreSQL at ${redact(baseUrl)} (${(error as Error).message}); start it or set DATABASE_URL`,
    );
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = connectDatabase({ databaseUrl: url.toString() });
  await migrateToLatest(database.knex);
  return {
    url: url.toString(),
    knex: database.knex,
    schemaUrl(schema) {
      const withSchema = new URL(url);
      withSchema.searchParams.set('options', `-c search_path=${schema}`);
      return withSchema.toString();
    },
    async freshSchema(schema) {
      await database.knex.raw(`drop schema if exists ${schema} cascade`);
      await database.knex.raw(`create schema ${schema}`);
    },
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export const redact = (url: string) => url.replace(/\/\/[^@]*@/, '//***@');
