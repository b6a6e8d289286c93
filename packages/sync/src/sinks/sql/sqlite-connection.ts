import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { quote, type SqlConnection } from './sql-connection.js';

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** The page cache of a mirror's connection, in KiB. */
const CACHE_KIB = 2000;

/** `require` from this module: by its file in a CommonJS build, by its URL in an ES module. */
const loadCommonJs = (id: string): unknown =>
  createRequire(typeof __filename === 'string' ? __filename : import.meta.url)(id);

/**
 * One better-sqlite3 database. Its calls are synchronous, so each statement completes before the next
 * starts; a transaction holds a queue so that no other caller's statement lands inside it.
 */
export class SqliteConnection implements SqlConnection {
  readonly kind = 'sqlite';
  private readonly statements = new Map<string, Statement>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly db: Database) {}

  /**
   * better-sqlite3 loads on first use, not when the package is imported; by `require`, as the CommonJS
   * package it is: `import()` of it went through the ES module loader's CommonJS translation (and its
   * export lexer), ~0.3 MB of a `vsf sync`'s peak RSS for nothing.
   */
  static async open(filename: string): Promise<SqliteConnection> {
    const Database = loadCommonJs('better-sqlite3') as typeof BetterSqlite3;
    const db = new Database(filename);
    // WAL with synchronous=NORMAL syncs at checkpoints rather than at every commit: a power cut may lose
    // the last pages written, never half of one, and their checkpoint goes with them, so the next run
    // fetches them again. Syncing every page cost more than fetching it.
    db.pragma('journal_mode = wal');
    db.pragma('synchronous = normal');
    // SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: a sync appends rows and reads
    // back only the id index, and the larger cache just filled with table pages written once. A 100k-car
    // sync peaked ~15 MB lower, no slower.
    db.pragma(`cache_size = -${CACHE_KIB}`);
    return new SqliteConnection(db);
  }

  /** A prepared statement, kept for the connection's life: pages reuse the same few. */
  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private rows<T>(sql: string, params: readonly unknown[]): T[] {
    const statement = this.prepare(sql);
    if (statement.reader) return statement.all(...params) as T[];
    statement.run(...params);
    return [];
  }

  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.exclusive(async () => this.rows<T>(sql, params));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.exclusive(async () => this.prepare(sql).run(...params).changes);
  }

  transaction<T>(work: (tx: SqlConnection) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      // Inside, statements run directly: the queue is held by this transaction.
      const tx: SqlConnection = {
        kind: 'sqlite',
        query: async <R>(sql: string, params: readonly unknown[] = []) => this.rows<R>(sql, params),
        run: async (sql, params = []) => this.prepare(sql).run(...params).changes,
        transaction: (inner) => inner(tx),
        hasTable: (table) => this.tableExists(table),
        columns: async (table) => this.columnNames(table),
        close: async () => {},
      };
      this.db.exec('begin');
      try {
        const result = await work(tx);
        this.db.exec('commit');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('rollback');
        throw error;
      }
    });
  }

  private async tableExists(table: string): Promise<boolean> {
    return this.rows(`select 1 from sqlite_master where type = 'table' and name = ?`, [table]).length > 0;
  }

  private columnNames(table: string): Set<string> {
    return new Set(this.rows<{ name: string }>(`pragma table_info(${quote(table)})`, []).map((c) => c.name));
  }

  hasTable(table: string): Promise<boolean> {
    return this.exclusive(() => this.tableExists(table));
  }

  columns(table: string): Promise<Set<string>> {
    return this.exclusive(async () => this.columnNames(table));
  }

  async close(): Promise<void> {
    await this.queue;
    this.db.close();
  }
}
