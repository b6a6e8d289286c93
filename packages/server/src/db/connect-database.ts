import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { BracketingPgClient } from './bracketing-pg-client.js';
import { parseTimestamptz } from './timestamptz-parser.js';

// int8 (count(*), bigint columns) arrives as a string from pg; every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));
// The same Dates as pg's own parser, read without regexes in the form the server's sessions get (UTC).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

/**
 * An open `PGlite`, as the public types name it: structural, because PGlite's own declarations need the
 * Emscripten globals (`@types/emscripten`), which TypeScript 6 no longer loads unless a project lists them.
 */
export interface PgliteInstance {
  readonly closed: boolean;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  exec(sql: string): Promise<unknown>;
  close(): Promise<void>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** An already-open PGlite instance (tests clone a migrated template into one). */
  pglite?: PgliteInstance;
}

export interface Database {
  knex: Knex;
  engine: 'postgres' | 'pglite';
  /** The embedded database, when that is the engine (its LISTEN/NOTIFY is an API, not a connection). */
  pglite?: PgliteInstance;
  close(): Promise<void>;
}

export function connectDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    // knex's pg client, with transactions that can send a statement with BEGIN and COMMIT (bracketing-pg-client.ts).
    const db = knex({ client: BracketingPgClient, connection: options.databaseUrl, pool: { min: 0, max: 10 } });
    return { knex: db, engine: 'postgres', close: () => db.destroy() };
  }
  const pglite = options.pglite ?? openPglite(options.dataDir ?? 'memory://');
  // knex-pglite runs everything over PGlite's single connection, so it fixes the pool at one.
  const db = knex({ client: ClientPgLite, dialect: 'postgres', connection: () => ({ pglite }) as object });
  return {
    knex: db,
    engine: 'pglite',
    pglite,
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function openPglite(dataDir: string): PgliteInstance {
  if (dataDir === 'memory://') return new PGlite();
  mkdirSync(dataDir, { recursive: true });
  return new PGlite(dataDir);
}
