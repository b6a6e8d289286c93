import type { ResourceSpec } from '../../resources.js';
import type { Checkpoint } from '../sink.js';
import { distinctIdCount, lastOfEachId } from './distinct-ids.js';
import { writeRecordValues } from './record-values.js';
import type { SqlConnection } from './sql-connection.js';

/** Records per upsert statement: 200 × ~25 columns stays far below PostgreSQL's parameter limit. */
export const UPSERT_ROWS = 200;

/**
 * Writes a resource's pages into PostgreSQL: up to 200 records per upsert, bound from an array per row
 * count kept for the sink's life, and a page copied only when it does repeat an id. A new 5 000-slot
 * array per statement and a copy of every page were ~13 % of what a 100k-car sync allocated, and both
 * lived through the statement's round trips, long enough to survive young-generation collections (which
 * then grow it): without them a library sync into PostgreSQL peaked at ~104 MB instead of ~136 MB
 * (medians of five). A write borrows the array until its statement is done, so writes that overlap
 * (never the engine's, which writes a resource's pages one by one) each bind from their own.
 */
export class PostgresPageWriter {
  private readonly spare = new Map<number, unknown[]>();
  private readonly width: number;

  constructor(
    private readonly resource: ResourceSpec,
    private readonly upsertSql: (rows: number) => string,
    private readonly saveCheckpointSql: string,
  ) {
    this.width = resource.columns.length + 2;
  }

  /** Runs inside the caller's transaction: the page and its checkpoint commit together. */
  async write(
    tx: SqlConnection,
    records: readonly Record<string, unknown>[],
    checkpoint: Checkpoint,
    now: string,
  ): Promise<{ upserted: number }> {
    // As for SQLite: a page and its checkpoint may be lost together in a crash, then fetched again,
    // so waiting for the WAL flush at each page's commit buys nothing. completeRun stays synchronous.
    await tx.run('set local synchronous_commit = off');
    // Ids repeat across pages while records change; within one statement a row may appear once.
    const unique = distinctIdCount(records) === records.length ? records : lastOfEachId(records);
    for (let i = 0; i < unique.length; i += UPSERT_ROWS) {
      const rows = Math.min(UPSERT_ROWS, unique.length - i);
      const bindings = this.spare.get(rows) ?? new Array(rows * this.width);
      this.spare.delete(rows);
      for (let r = 0; r < rows; r++) {
        writeRecordValues(bindings, r * this.width, this.resource, unique[i + r]!, false, checkpoint.runId, now);
      }
      await tx.run(this.upsertSql(rows), bindings, { reuse: true });
      // Emptied, so the kept array does not hold this page's values while the next pages are read.
      bindings.fill(null);
      this.spare.set(rows, bindings);
    }
    await tx.run(this.saveCheckpointSql, [this.resource.name, JSON.stringify(checkpoint), now]);
    return { upserted: unique.length };
  }
}
