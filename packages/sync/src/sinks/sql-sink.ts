import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { isoTime } from '../iso-time.js';
import type { ResourceSpec } from '../resources.js';
import { heldByDeadProcess, lockedBy, lockHolder, type StoredLock, thisProcessLock } from './lock-holder.js';
import {
  type Checkpoint,
  type LockHolder,
  type ResourceChanges,
  type ResourceState,
  type Sink,
  SyncLockedError,
} from './sink.js';
import { columnType } from './sql/column-types.js';
import { PostgresConnection } from './sql/postgres-connection.js';
import { PostgresPageWriter, UPSERT_ROWS } from './sql/postgres-page-writer.js';
import { writeRecordValues } from './sql/record-values.js';
import { quote, type SqlConnection } from './sql/sql-connection.js';
import { SqliteConnection } from './sql/sqlite-connection.js';
import { buildIdIndex, hasIdIndex } from './sql/sqlite-id-index.js';
import { LoadingIds } from './sql/sqlite-loading-ids.js';
import { SqlitePageWriter } from './sql/sqlite-page-writer.js';
import { insertValuesSql } from './sql/upsert-sql.js';

const STATE_TABLE = 'vsf_sync_state';
const LOCK_TABLE = 'vsf_sync_lock';
const LOCK_NAME = 'mirror';
const SAVE_STATE =
  `insert into ${STATE_TABLE} (resource, watermark, checkpoint, feed_cursor, updated_at) values (?, ?, ?, ?, ?) ` +
  'on conflict (resource) do update set watermark = excluded.watermark, checkpoint = excluded.checkpoint, feed_cursor = excluded.feed_cursor, updated_at = excluded.updated_at';
/** A page's checkpoint, in one statement: the watermark and feed cursor stay as they are. */
const SAVE_CHECKPOINT =
  `insert into ${STATE_TABLE} (resource, checkpoint, updated_at) values (?, ?, ?) ` +
  'on conflict (resource) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at';

interface StateRow {
  watermark: string | null;
  checkpoint: string | null;
  feed_cursor: number | string | null;
  updated_at: string | null;
}

/**
 * One sink for SQLite (better-sqlite3) and PostgreSQL (pg), on the drivers directly: one table per
 * resource, one column per API field in snake_case, plus `synced_at` and `synced_run` (the last run
 * that saw the row, which is what pruning compares).
 */
export class SqlSink implements Sink {
  private lockOwner: string | undefined;
  private readonly upserts = new Map<string, string>();
  private readonly sqliteWriters = new Map<string, SqlitePageWriter>();
  private readonly postgresWriters = new Map<string, PostgresPageWriter>();
  private connection: Promise<SqlConnection> | undefined;
  /** SQLite tables known to have their id index: once built it stays. */
  private readonly indexed = new Set<string>();
  /** The ids of SQLite tables still loading, kept for reading them (sqlite-loading-ids.ts). */
  private loadingIds: LoadingIds | undefined;

  constructor(
    readonly kind: 'sqlite' | 'postgres',
    /** The SQLite file or the PostgreSQL URL. */
    private readonly target: string,
  ) {}

  static sqlite(filename: string): SqlSink {
    return new SqlSink('sqlite', filename);
  }

  static postgres(url: string): SqlSink {
    return new SqlSink('postgres', url);
  }

  /** The driver loads when the sink is first used, not when the package is imported. */
  private db(): Promise<SqlConnection> {
    this.connection ??=
      this.kind === 'sqlite' ? SqliteConnection.open(this.target) : PostgresConnection.open(this.target);
    return this.connection;
  }

  async prepare(resources: ResourceSpec[]): Promise<void> {
    const db = await this.db();
    await db.run(
      `create table if not exists ${STATE_TABLE} (resource text, watermark text, checkpoint text, feed_cursor bigint, updated_at text not null, primary key (resource))`,
    );
    // Mirrors made before the events feed have no cursor column yet.
    if (!(await db.columns(STATE_TABLE)).has('feed_cursor'))
      await db.run(`alter table ${STATE_TABLE} add column feed_cursor bigint`);
    await db.run(
      `create table if not exists ${LOCK_TABLE} (name text, owner text not null, pid integer not null, host text not null, acquired_at text not null, primary key (name))`,
    );
    for (const resource of resources) await this.prepareTable(db, resource);
  }

  private async prepareTable(db: SqlConnection, resource: ResourceSpec): Promise<void> {
    const table = quote(resource.name);
    if (!(await db.hasTable(resource.name))) {
      const columns = resource.columns.map((c) => `${quote(c.column)} ${columnType(this.kind, c)}`);
      // SQLite's table loads without its id index, built when the first run completes (sqlite-id-index.ts).
      const key = this.kind === 'sqlite' ? '' : ', primary key ("id")';
      await db.run(
        `create table ${table} (${columns.join(', ')}, "synced_at" text not null, "synced_run" text not null${key})`,
      );
      return;
    }
    const existing = await db.columns(resource.name);
    // Never write into a table this sink did not make (say, the API server's own `cars`).
    if (!existing.has('synced_run')) {
      throw new Error(
        `Table ${resource.name} exists but is not a vsf mirror table; point the sink at another database or schema (for PostgreSQL add ?options=-c%20search_path%3D<schema>)`,
      );
    }
    // Fields added to the API later become new columns; nothing is dropped.
    for (const column of resource.columns) {
      if (!existing.has(column.column))
        await db.run(`alter table ${table} add column ${quote(column.column)} ${columnType(this.kind, column)}`);
    }
  }

  async lock(owner: string): Promise<void> {
    const db = await this.db();
    const mine = thisProcessLock(owner);
    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db.query(
        `insert into ${LOCK_TABLE} (name, owner, pid, host, acquired_at) values (?, ?, ?, ?, ?) on conflict (name) do nothing returning name`,
        [LOCK_NAME, mine.owner, mine.pid, mine.host, mine.since],
      );
      if (inserted.length > 0) {
        this.lockOwner = `${mine.pid}@${mine.host}`;
        return;
      }
      const holder = await this.storedLock(db);
      // Released between the insert and the read, or held by a run that died here: try again.
      if (!holder) continue;
      if (heldByDeadProcess(holder)) {
        await db.run(`delete from ${LOCK_TABLE} where name = ? and pid = ? and host = ?`, [
          LOCK_NAME,
          holder.pid,
          holder.host,
        ]);
        continue;
      }
      throw lockedBy(holder);
    }
    throw new SyncLockedError('the lock changed hands while it was being taken');
  }

  async unlock(): Promise<void> {
    if (!this.lockOwner) return;
    const db = await this.db();
    await db.run(`delete from ${LOCK_TABLE} where name = ? and pid = ? and host = ?`, [
      LOCK_NAME,
      process.pid,
      hostname(),
    ]);
    this.lockOwner = undefined;
  }

  async lockHolder(): Promise<LockHolder | null> {
    // Opening a missing SQLite file would create it: a mirror never made has no lock.
    if (this.kind === 'sqlite' && !this.connection && !existsSync(this.target)) return null;
    const db = await this.db();
    if (!(await db.hasTable(LOCK_TABLE))) return null;
    const holder = await this.storedLock(db);
    return holder ? lockHolder(holder) : null;
  }

  private async storedLock(db: SqlConnection): Promise<StoredLock | undefined> {
    const [held] = await db.query<{ owner: string; pid: number | string; host: string; acquired_at: string }>(
      `select owner, pid, host, acquired_at from ${LOCK_TABLE} where name = ?`,
      [LOCK_NAME],
    );
    return held && { owner: held.owner, pid: Number(held.pid), host: held.host, since: held.acquired_at };
  }

  async getState(resource: ResourceSpec): Promise<ResourceState> {
    return this.stateIn(await this.db(), resource);
  }

  private async stateIn(db: SqlConnection, resource: ResourceSpec): Promise<ResourceState> {
    const [row] = await db.query<StateRow>(
      `select watermark, checkpoint, feed_cursor, updated_at from ${STATE_TABLE} where resource = ?`,
      [resource.name],
    );
    return {
      watermark: row?.watermark ?? null,
      checkpoint: row?.checkpoint ? (JSON.parse(row.checkpoint) as Checkpoint) : null,
      feedCursor: row?.feed_cursor === null || row?.feed_cursor === undefined ? null : Number(row.feed_cursor),
      updatedAt: row?.updated_at ?? null,
    };
  }

  private async saveState(db: SqlConnection, resource: ResourceSpec, state: ResourceState): Promise<void> {
    await db.run(SAVE_STATE, [
      resource.name,
      state.watermark,
      state.checkpoint ? JSON.stringify(state.checkpoint) : null,
      state.feedCursor ?? null,
      isoTime(),
    ]);
  }

  /** One record's bindings, in the column order of upsertSql. */
  private toValues(resource: ResourceSpec, record: Record<string, unknown>, runId: string, now: string): unknown[] {
    const values: unknown[] = new Array(resource.columns.length + 2);
    writeRecordValues(values, 0, resource, record, this.kind === 'sqlite', runId, now);
    return values;
  }

  /** The upsert of `rows` records, written once per resource and row count. */
  private upsertSql(resource: ResourceSpec, rows: number): string {
    const cacheKey = `${resource.name}\0${rows}`;
    let sql = this.upserts.get(cacheKey);
    if (!sql) {
      sql = insertValuesSql(resource, rows);
      this.upserts.set(cacheKey, sql);
    }
    return sql;
  }

  async applyPage(resource: ResourceSpec, records: Record<string, unknown>[], checkpoint: Checkpoint) {
    const now = isoTime();
    const db = await this.db();
    if (db instanceof SqliteConnection) {
      const writer = await this.sqliteWriter(db, resource);
      // better-sqlite3 is synchronous: the page is written within this one transaction's turn.
      return db.transaction(async (tx) => {
        await this.loadingIds?.forget(tx, resource);
        return writer.write(records, checkpoint, now);
      });
    }
    const writer = this.postgresWriter(resource);
    return db.transaction((tx) => writer.write(tx, records, checkpoint, now));
  }

  /**
   * The resource's SQLite page writer, with its statements prepared once for the sink's life: plain
   * inserts while the table is loading without its id index (sqlite-id-index.ts), upserts after.
   */
  private async sqliteWriter(db: SqliteConnection, resource: ResourceSpec): Promise<SqlitePageWriter> {
    let writer = this.sqliteWriters.get(resource.name);
    if (!writer) {
      const insert = db.prepare(insertValuesSql(resource, 1, await this.hasIndexedIds(db, resource)));
      writer = new SqlitePageWriter(resource, insert, db.prepare(SAVE_CHECKPOINT));
      this.sqliteWriters.set(resource.name, writer);
    }
    return writer;
  }

  /**
   * Whether the resource's table has its id index: always on PostgreSQL; on SQLite once it is built and
   * committed (an index built in a transaction that may yet roll back is found by the next call).
   */
  private async hasIndexedIds(db: SqlConnection, resource: ResourceSpec): Promise<boolean> {
    if (db.kind !== 'sqlite' || this.indexed.has(resource.name)) return true;
    if (!(await hasIdIndex(db, resource))) return false;
    this.indexed.add(resource.name);
    return true;
  }

  /** Gives a SQLite table loaded without its id index the index, before anything else writes to it. */
  private async indexLoadedTable(tx: SqlConnection, resource: ResourceSpec): Promise<void> {
    if (await this.hasIndexedIds(tx, resource)) return;
    await this.loadingIds?.forget(tx, resource);
    await buildIdIndex(tx, resource);
    // The writer prepared for loading inserts plainly: the next page needs the upsert.
    this.sqliteWriters.delete(resource.name);
  }

  /** The resource's PostgreSQL page writer, with its bindings kept for the sink's life. */
  private postgresWriter(resource: ResourceSpec): PostgresPageWriter {
    let writer = this.postgresWriters.get(resource.name);
    if (!writer) {
      writer = new PostgresPageWriter(resource, (rows) => this.upsertSql(resource, rows), SAVE_CHECKPOINT);
      this.postgresWriters.set(resource.name, writer);
    }
    return writer;
  }

  async resetCheckpoint(resource: ResourceSpec): Promise<void> {
    const state = await this.getState(resource);
    await this.saveState(await this.db(), resource, { ...state, checkpoint: null });
  }

  async completeRun(
    resource: ResourceSpec,
    run: { runId: string; watermark: string; prune: boolean; feedCursor?: number | undefined },
  ) {
    const db = await this.db();
    return db.transaction(async (tx) => {
      await this.indexLoadedTable(tx, resource);
      const deleted = run.prune
        ? await tx.run(`delete from ${quote(resource.name)} where synced_run <> ?`, [run.runId])
        : 0;
      const { feedCursor } = await this.stateIn(tx, resource);
      await this.saveState(tx, resource, {
        watermark: run.watermark,
        checkpoint: null,
        feedCursor: run.feedCursor ?? feedCursor,
      });
      return { deleted };
    });
  }

  async applyChanges(changes: readonly ResourceChanges[], position: { cursor: number; watermark: string | null }) {
    const db = await this.db();
    const now = isoTime();
    // Rows written from the feed are seen by no full run: a later full run with prune still compares its own.
    const runId = `events:${position.cursor}`;
    return db.transaction(async (tx) => {
      let upserted = 0;
      let deleted = 0;
      for (const { resource, upserts, deletes } of changes) {
        await this.indexLoadedTable(tx, resource);
        // One row per statement: a page may hold several changes of one record, applied in order.
        for (const record of upserts)
          await tx.run(this.upsertSql(resource, 1), this.toValues(resource, record, runId, now));
        upserted += upserts.length;
        for (let i = 0; i < deletes.length; i += UPSERT_ROWS) {
          const ids = deletes.slice(i, i + UPSERT_ROWS);
          deleted += await tx.run(
            `delete from ${quote(resource.name)} where id in (${ids.map(() => '?').join(', ')})`,
            ids,
          );
        }
        const state = await this.stateIn(tx, resource);
        await this.saveState(tx, resource, {
          watermark: position.watermark ?? state.watermark,
          checkpoint: state.checkpoint,
          feedCursor: Math.max(position.cursor, state.feedCursor ?? 0),
        });
      }
      return { upserted, deleted };
    });
  }

  async readAll(resource: ResourceSpec): Promise<Record<string, unknown>[]> {
    const rows = await (await this.db()).query(`select * from ${quote(resource.name)} order by id`);
    return rows.map((row) => this.toRecord(resource, row));
  }

  async hasMirror(resource: ResourceSpec): Promise<boolean> {
    // Opening a missing SQLite file would create it: a read-only caller must find nothing instead.
    if (this.kind === 'sqlite' && !this.connection && !existsSync(this.target)) return false;
    const db = await this.db();
    return (await db.hasTable(resource.name)) && (await db.columns(resource.name)).has('synced_run');
  }

  async countRows(resource: ResourceSpec): Promise<number> {
    const [row] = await (await this.db()).query<{ n: number | string }>(
      `select count(*) as n from ${quote(resource.name)}`,
    );
    return Number(row?.n ?? 0);
  }

  async readByIds(resource: ResourceSpec, ids: string[]): Promise<Record<string, unknown>[]> {
    if (ids.length === 0) return [];
    const db = await this.db();
    const loading = await this.loadingIdsOf(db, resource);
    const among = `in (${ids.map(() => '?').join(', ')})`;
    const rows = await db.query(
      loading
        ? `select m.* from ${loading} as l join main.${quote(resource.name)} as m on m.rowid = l.rid where l."id" ${among}`
        : `select * from ${quote(resource.name)} where id ${among}`,
      ids,
    );
    return rows.map((row) => this.toRecord(resource, row));
  }

  async idsAfter(resource: ResourceSpec, after: string | null, limit: number): Promise<string[]> {
    const db = await this.db();
    const loading = await this.loadingIdsOf(db, resource);
    const where = after === null ? '' : 'where id > ? ';
    const rows = await db.query<{ id: unknown }>(
      loading
        ? `select distinct "id" from ${loading} ${where}order by "id" limit ?`
        : `select id from ${quote(resource.name)} ${where}order by id limit ?`,
      after === null ? [limit] : [after, limit],
    );
    return rows.map((row) => String(row.id));
  }

  /** For a SQLite table still loading without its id index, the temporary table of its ids; else none. */
  private async loadingIdsOf(db: SqlConnection, resource: ResourceSpec): Promise<string | undefined> {
    if (await this.hasIndexedIds(db, resource)) return undefined;
    this.loadingIds ??= new LoadingIds(db);
    return this.loadingIds.of(resource);
  }

  /** A stored row as the API record it came from. */
  private toRecord(resource: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const c of resource.columns) {
      const value = row[c.column];
      if (value === null || value === undefined) record[c.field] = null;
      else if (c.kind === 'json') record[c.field] = typeof value === 'string' ? JSON.parse(value) : value;
      else if (c.kind === 'boolean') record[c.field] = Boolean(value);
      else if (c.kind === 'timestamp') record[c.field] = new Date(value as string).toISOString();
      else if (c.kind === 'integer' || c.kind === 'number') record[c.field] = Number(value);
      else record[c.field] = value;
    }
    return record;
  }

  async close(): Promise<void> {
    if (!this.connection) return;
    await this.unlock().catch(() => {});
    await (await this.connection).close();
  }
}
