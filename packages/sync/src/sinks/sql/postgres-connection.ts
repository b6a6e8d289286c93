import type { Pool, PoolClient } from 'pg';
import type { RunOptions, SqlConnection } from './sql-connection.js';

/** `?` placeholders as PostgreSQL's `$1, $2…`; the sink's SQL has no `?` of its own. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * Statements run with `reuse`, by text: a name per text, which pg prepares once on each connection.
 * Only statements whose result never changes shape are reused (an upsert returns no rows): a prepared
 * `select *` would fail once a migration added a column.
 */
const reused = new Map<string, { name: string; text: string }>();

function reusable(sql: string): { name: string; text: string } {
  let statement = reused.get(sql);
  if (!statement) {
    statement = { name: `vsf_sync_${reused.size + 1}`, text: numbered(sql) };
    reused.set(sql, statement);
  }
  return statement;
}

function runOn(db: Queryable, sql: string, params: readonly unknown[], options?: RunOptions) {
  const values = params as unknown[];
  return options?.reuse ? db.query({ ...reusable(sql), values }) : db.query(numbered(sql), values);
}

type Queryable = Pool | PoolClient;

function over(db: Queryable, transaction: SqlConnection['transaction']): SqlConnection {
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await db.query(numbered(sql), params as unknown[])).rows as T[],
    run: async (sql, params = [], options) => (await runOn(db, sql, params, options)).rowCount ?? 0,
    transaction,
    hasTable: async (table) =>
      (
        await db.query(
          'select 1 from information_schema.tables where table_schema = current_schema() and table_name = $1',
          [table],
        )
      ).rows.length > 0,
    columns: async (table) =>
      new Set(
        (
          await db.query(
            'select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1',
            [table],
          )
        ).rows.map((row: { column_name: string }) => row.column_name),
      ),
    close: async () => {},
  };
}

/** A pg pool of a few connections; a transaction takes one of them for its whole length. */
export class PostgresConnection implements SqlConnection {
  readonly kind = 'postgres';
  private readonly direct: SqlConnection;

  private constructor(private readonly pool: Pool) {
    this.direct = over(pool, (work) => this.transaction(work));
  }

  /** pg loads on first use, not when the package is imported. */
  static async open(url: string): Promise<PostgresConnection> {
    const { default: pg } = await import('pg');
    return new PostgresConnection(new pg.Pool({ connectionString: url, max: 4 }));
  }

  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.direct.query<T>(sql, params);
  }

  run(sql: string, params?: readonly unknown[], options?: RunOptions): Promise<number> {
    return this.direct.run(sql, params, options);
  }

  hasTable(table: string): Promise<boolean> {
    return this.direct.hasTable(table);
  }

  columns(table: string): Promise<Set<string>> {
    return this.direct.columns(table);
  }

  async transaction<T>(work: (tx: SqlConnection) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx = over(client, (inner) => inner(tx));
    try {
      await client.query('begin');
      const result = await work(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
