import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { hasDeferredOpening, rideDeferredOpening } from '../db/bracketing-pg-client.js';
import { withLiterals } from '../db/sql-literal.js';

type Executor = Knex | Knex.Transaction;

/** What both drivers' connections answer a query with: pg's `Client` and PGlite (named statements: `runNamed`). */
interface Connection {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The part of knex's client a statement needs: its pool (a transaction's client hands out its own connection). */
interface PoolingClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<unknown>;
}

/**
 * A fixed statement on the request path, run on a connection from knex's pool (or the transaction's own)
 * without knex's query builder and runner, which cost a read about as much as the database did. On
 * PostgreSQL it is a named prepared statement, so the server parses and plans it once per connection.
 * Written with knex's `?` placeholders; the values are always bound, never spliced.
 */
export class HotStatement {
  private readonly text: string;
  private readonly name: string;

  /** `prepared: false` runs it unnamed: PostgreSQL keeps no plan for it on the connection. */
  constructor(
    private readonly sql: string,
    private readonly options: { prepared?: boolean } = {},
  ) {
    let position = 0;
    this.text = sql.replace(/\?/g, () => `$${++position}`);
    this.name = `vsf_${createHash('sha256').update(this.text).digest('hex').slice(0, 24)}`;
  }

  async rows(db: Executor, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const client = db.client as unknown as PoolingClient;
    const connection = await client.acquireConnection();
    try {
      // A transaction that waits to begin (an idempotent create's) sends its opening with this statement.
      // Asked first, so an ordinary read makes no closures for a path it does not take (every read runs here).
      if (connection instanceof pg.Client && hasDeferredOpening(connection)) {
        const rode = await rideDeferredOpening(
          connection,
          () => this.withValues(values),
          () => this.run(connection, values),
        );
        if (rode) return rode;
      }
      return await this.run(connection, values);
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private async run(connection: Connection, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
    // PGlite has no named statements; it runs in this process, so there is no round trip to save either.
    if (connection instanceof pg.Client && this.options.prepared !== false)
      return runNamed(connection, this.name, this.text, values);
    return (await connection.query(this.text, values)).rows;
  }

  /** The statement as SQL text with its values written in, for a message that cannot carry parameters. */
  withValues(values: readonly unknown[]): string {
    return withLiterals(this.sql, values);
  }
}

/**
 * A named statement submitted as pg's own `Query`, made from the text: given a `{ name, text, values }`
 * config instead, pg copies it property by property (through its descriptors) and wraps its promise in one
 * more, on every query (~5 µs of a read under load).
 */
function runNamed(
  connection: pg.Client,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query(text, values as unknown[], (error, result) => {
      if (error) reject(error);
      else resolve((result as unknown as { rows: Record<string, unknown>[] }).rows);
    });
    (query as unknown as { name: string }).name = name;
    connection.query(query);
  });
}

/**
 * Hot statements whose text depends on the request (the columns a body writes), made once per distinct
 * text. Bounded: the texts come from a table's known columns, but a client choosing among many optional
 * fields could make very many; past the bound a statement is made, and run unprepared, for its one use.
 */
export class StatementCache {
  private readonly statements = new Map<string, HotStatement>();

  constructor(private readonly limit = 64) {}

  get(key: string, sql: () => string): HotStatement {
    let statement = this.statements.get(key);
    if (!statement) {
      const kept = this.statements.size < this.limit;
      // Past the bound, unnamed: each connection would otherwise keep a plan for every text it saw.
      statement = new HotStatement(sql(), { prepared: kept });
      if (kept) this.statements.set(key, statement);
    }
    return statement;
  }
}
