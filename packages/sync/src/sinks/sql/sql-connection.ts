/** A database the SQL sink writes to, through its driver directly: no query builder on the sync's path. */
export interface SqlConnection {
  readonly kind: 'sqlite' | 'postgres';
  /** Rows of a statement written with `?` placeholders (also for `returning`). */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs a statement; the number of rows it changed. `reuse`: the statement runs again and again with
   * this text (a page's upsert), so PostgreSQL parses and plans it once per connection, not per page.
   */
  run(sql: string, params?: readonly unknown[], options?: RunOptions): Promise<number>;
  /** Runs `work` in one transaction on one connection: all of it commits, or none. */
  transaction<T>(work: (tx: SqlConnection) => Promise<T>): Promise<T>;
  hasTable(table: string): Promise<boolean>;
  columns(table: string): Promise<Set<string>>;
  close(): Promise<void>;
}

export interface RunOptions {
  reuse?: boolean;
}

/** A quoted SQL identifier. */
export const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;
