import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { ColumnSpec, ResourceSpec } from '../resources.js';
import { processAlive } from './process-alive.js';
import { type Checkpoint, type ResourceState, type Sink, SyncLockedError } from './sink.js';

const STATE_TABLE = 'vsf_sync_state';

/** The parts of a better-sqlite3 connection the SQLite fast path uses. */
interface SqliteStatement {
  run(...bindings: unknown[]): unknown;
  get(...bindings: unknown[]): unknown;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  transaction<T>(fn: () => T): () => T;
}
const LOCK_TABLE = 'vsf_sync_lock';
const LOCK_NAME = 'mirror';
/** Records per upsert statement: 200 × ~25 columns stays far below SQLite's and PostgreSQL's parameter limits. */
const UPSERT_ROWS = 200;

/**
 * One sink for SQLite (better-sqlite3) and PostgreSQL (pg), through knex: one table per resource,
 * one column per API field in snake_case, plus `synced_at` and `synced_run` (the last run that saw
 * the row, which is what pruning compares).
 */
export class SqlSink implements Sink {
  private lockOwner: string | undefined;
  private readonly upserts = new Map<string, string>();
  private readonly sqliteStatements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

  private connection: Promise<Knex> | undefined;

  constructor(
    readonly kind: 'sqlite' | 'postgres',
    private readonly config: Knex.Config,
  ) {}

  /**
   * knex and its driver load when the sink is first used, not when the package is imported: they take
   * ~160 ms to load, which every `vsf` command other than a SQL sync (and every JSONL sync) would pay.
   */
  private knex(): Promise<Knex> {
    this.connection ??= import('knex').then(({ default: knex }) => knex(this.config));
    return this.connection;
  }

  static sqlite(filename: string): SqlSink {
    return new SqlSink('sqlite', {
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        // WAL with synchronous=NORMAL syncs at checkpoints rather than at every commit: a power cut
        // may lose the last pages written, never half of one, and their checkpoint goes with them, so
        // the next run fetches them again. Syncing every page cost more than fetching it.
        afterCreate: (connection: { pragma(source: string): unknown }, done: (error: Error | null) => void) => {
          connection.pragma('journal_mode = wal');
          connection.pragma('synchronous = normal');
          done(null);
        },
      },
    });
  }

  static postgres(url: string): SqlSink {
    return new SqlSink('postgres', { client: 'pg', connection: url, pool: { min: 0, max: 4 } });
  }

  async prepare(resources: ResourceSpec[]): Promise<void> {
    const db = await this.knex();
    if (!(await db.schema.hasTable(STATE_TABLE))) {
      await db.schema.createTable(STATE_TABLE, (t) => {
        t.text('resource').primary();
        t.text('watermark');
        t.text('checkpoint');
        t.text('updated_at').notNullable();
      });
    }
    if (!(await db.schema.hasTable(LOCK_TABLE))) {
      await db.schema.createTable(LOCK_TABLE, (t) => {
        t.text('name').primary();
        t.text('owner').notNullable();
        t.integer('pid').notNullable();
        t.text('host').notNullable();
        t.text('acquired_at').notNullable();
      });
    }
    for (const resource of resources) await this.prepareTable(resource);
  }

  private columnType(t: Knex.CreateTableBuilder | Knex.AlterTableBuilder, column: ColumnSpec) {
    const pg = this.kind === 'postgres';
    switch (column.kind) {
      case 'integer':
        return t.bigInteger(column.column);
      case 'number':
        return t.double(column.column);
      case 'boolean':
        return t.boolean(column.column);
      case 'timestamp':
        return pg ? t.timestamp(column.column, { useTz: true, precision: 3 }) : t.text(column.column);
      case 'json':
        return pg ? t.jsonb(column.column) : t.text(column.column);
      default:
        return column.column === 'id' ? t.string(column.column) : t.text(column.column);
    }
  }

  private async prepareTable(resource: ResourceSpec): Promise<void> {
    const db = await this.knex();
    const table = resource.name;
    if (!(await db.schema.hasTable(table))) {
      await db.schema.createTable(table, (t) => {
        for (const column of resource.columns) {
          const c = this.columnType(t, column);
          if (column.column === 'id') c.primary();
        }
        t.text('synced_at').notNullable();
        t.text('synced_run').notNullable();
      });
      return;
    }
    // Never write into a table this sink did not make (say, the API server's own `cars`).
    if (!(await db.schema.hasColumn(table, 'synced_run'))) {
      throw new Error(
        `Table ${table} exists but is not a vsf mirror table; point the sink at another database or schema (for PostgreSQL add ?options=-c%20search_path%3D<schema>)`,
      );
    }
    // Fields added to the API later become new columns; nothing is dropped.
    for (const column of resource.columns) {
      if (!(await db.schema.hasColumn(table, column.column))) {
        await db.schema.alterTable(table, (t) => {
          this.columnType(t, column);
        });
      }
    }
  }

  async lock(owner: string): Promise<void> {
    const db = await this.knex();
    const row = { name: LOCK_NAME, owner, pid: process.pid, host: hostname(), acquired_at: new Date().toISOString() };
    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db(LOCK_TABLE).insert(row).onConflict('name').ignore().returning('name');
      if (inserted.length > 0) {
        this.lockOwner = `${row.pid}@${row.host}`;
        return;
      }
      const holder = await db(LOCK_TABLE).where({ name: LOCK_NAME }).first();
      // A run killed on this machine (SIGKILL, OOM, reboot) cannot release its lock: take it over.
      if (holder && holder.host === row.host && !processAlive(Number(holder.pid))) {
        await db(LOCK_TABLE).where({ name: LOCK_NAME, pid: holder.pid, host: holder.host }).delete();
        continue;
      }
      throw new SyncLockedError(
        `${holder?.owner}, pid ${holder?.pid} on ${holder?.host}, since ${holder?.acquired_at}`,
      );
    }
    throw new SyncLockedError('the lock changed hands while it was being taken');
  }

  async unlock(): Promise<void> {
    if (!this.lockOwner) return;
    const db = await this.knex();
    await db(LOCK_TABLE).where({ name: LOCK_NAME, pid: process.pid, host: hostname() }).delete();
    this.lockOwner = undefined;
  }

  async getState(resource: ResourceSpec): Promise<ResourceState> {
    const db = await this.knex();
    const row = await db(STATE_TABLE).where({ resource: resource.name }).first();
    return {
      watermark: row?.watermark ?? null,
      checkpoint: row?.checkpoint ? (JSON.parse(row.checkpoint) as Checkpoint) : null,
    };
  }

  private async saveState(trx: Knex | Knex.Transaction, resource: ResourceSpec, state: ResourceState): Promise<void> {
    await trx(STATE_TABLE)
      .insert({
        resource: resource.name,
        watermark: state.watermark,
        checkpoint: state.checkpoint ? JSON.stringify(state.checkpoint) : null,
        updated_at: new Date().toISOString(),
      })
      .onConflict('resource')
      .merge();
  }

  /** One record's bindings, in the column order of upsertSql. */
  private toValues(resource: ResourceSpec, record: Record<string, unknown>, runId: string, now: string): Knex.Value[] {
    const values: Knex.Value[] = [];
    for (const c of resource.columns) {
      const value = record[c.field];
      if (value === undefined || value === null) values.push(null);
      else if (c.kind === 'json') values.push(JSON.stringify(value));
      else if (c.kind === 'boolean' && this.kind === 'sqlite') values.push(value ? 1 : 0);
      else values.push(value as Knex.Value);
    }
    values.push(now, runId);
    return values;
  }

  /**
   * `insert … on conflict (id) do update` for `rows` records, written once per resource and row count:
   * knex's query builder took longer to compile a 100-row upsert than the database took to run it.
   * A stored record is replaced only when the incoming one is not older; either way it is marked seen
   * by this run (`synced_run`), which is what pruning compares.
   */
  private upsertSql(resource: ResourceSpec, rows: number): string {
    const cacheKey = `${resource.name}\0${rows}`;
    const cached = this.upserts.get(cacheKey);
    if (cached) return cached;
    const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const table = q(resource.name);
    const columns = [...resource.columns.map((c) => c.column), 'synced_at', 'synced_run'];
    const placeholders = `(${columns.map(() => '?').join(', ')})`;
    const hasUpdatedAt = resource.columns.some((c) => c.column === 'updated_at');
    const newer = `${table}."updated_at" is null or excluded."updated_at" >= ${table}."updated_at"`;
    const assignments = columns
      .filter((c) => c !== 'id')
      .map((c) =>
        !hasUpdatedAt || c === 'synced_at' || c === 'synced_run'
          ? `${q(c)} = excluded.${q(c)}`
          : `${q(c)} = case when ${newer} then excluded.${q(c)} else ${table}.${q(c)} end`,
      );
    const sql =
      `insert into ${table} (${columns.map(q).join(', ')}) values ${Array(rows).fill(placeholders).join(', ')} ` +
      `on conflict ("id") do update set ${assignments.join(', ')}`;
    this.upserts.set(cacheKey, sql);
    return sql;
  }

  async applyPage(resource: ResourceSpec, records: Record<string, unknown>[], checkpoint: Checkpoint) {
    const now = new Date().toISOString();
    if (this.kind === 'sqlite') return this.applyPageSqlite(resource, records, checkpoint, now);
    return (await this.knex()).transaction(async (trx) => {
      // As for SQLite: a page and its checkpoint may be lost together in a crash, then fetched again,
      // so waiting for the WAL flush at each page's commit buys nothing. completeRun stays synchronous.
      if (this.kind === 'postgres') await trx.raw('set local synchronous_commit = off');
      let upserted = 0;
      // Ids repeat across pages while records change; within one statement a row may appear once.
      const unique = [...new Map(records.map((r) => [String(r.id), r])).values()];
      for (let i = 0; i < unique.length; i += UPSERT_ROWS) {
        const chunk = unique.slice(i, i + UPSERT_ROWS);
        const bindings: Knex.Value[] = [];
        for (const record of chunk) bindings.push(...this.toValues(resource, record, checkpoint.runId, now));
        await trx.raw(this.upsertSql(resource, chunk.length), bindings);
        upserted += chunk.length;
      }
      const state = await this.getStateIn(trx, resource);
      await this.saveState(trx, resource, { watermark: state.watermark, checkpoint });
      return { upserted };
    });
  }

  /**
   * SQLite pages go straight to better-sqlite3 on knex's only connection, with one prepared single-row
   * upsert reused for every record. Through knex each page prepared a new 200-row statement that was
   * freed only when the garbage collector got to it; a 100k-car sync peaked ~25 MB higher for it.
   */
  private async applyPageSqlite(
    resource: ResourceSpec,
    records: Record<string, unknown>[],
    checkpoint: Checkpoint,
    now: string,
  ): Promise<{ upserted: number }> {
    const client = (await this.knex()).client as {
      acquireConnection(): Promise<SqliteConnection>;
      releaseConnection(connection: SqliteConnection): Promise<void>;
    };
    const connection = await client.acquireConnection();
    try {
      let statements = this.sqliteStatements.get(connection);
      if (!statements) {
        statements = new Map();
        this.sqliteStatements.set(connection, statements);
      }
      const prepare = (sql: string) => {
        let statement = statements.get(sql);
        if (!statement) {
          statement = connection.prepare(sql);
          statements.set(sql, statement);
        }
        return statement;
      };
      const upsert = prepare(this.upsertSql(resource, 1));
      const readWatermark = prepare(`select watermark from ${STATE_TABLE} where resource = ?`);
      const writeState = prepare(
        `insert into ${STATE_TABLE} (resource, watermark, checkpoint, updated_at) values (?, ?, ?, ?) ` +
          'on conflict (resource) do update set watermark = excluded.watermark, checkpoint = excluded.checkpoint, updated_at = excluded.updated_at',
      );
      // One record per statement, so ids repeated within a page simply apply in order.
      return connection.transaction(() => {
        for (const record of records) upsert.run(this.toValues(resource, record, checkpoint.runId, now));
        const state = readWatermark.get(resource.name) as { watermark: string | null } | undefined;
        writeState.run(resource.name, state?.watermark ?? null, JSON.stringify(checkpoint), new Date().toISOString());
        return { upserted: new Set(records.map((r) => String(r.id))).size };
      })();
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private async getStateIn(trx: Knex.Transaction, resource: ResourceSpec): Promise<ResourceState> {
    const row = await trx(STATE_TABLE).where({ resource: resource.name }).first();
    return { watermark: row?.watermark ?? null, checkpoint: row?.checkpoint ? JSON.parse(row.checkpoint) : null };
  }

  async resetCheckpoint(resource: ResourceSpec): Promise<void> {
    const state = await this.getState(resource);
    await this.saveState(await this.knex(), resource, { watermark: state.watermark, checkpoint: null });
  }

  async completeRun(resource: ResourceSpec, run: { runId: string; watermark: string; prune: boolean }) {
    const db = await this.knex();
    return db.transaction(async (trx) => {
      const deleted = run.prune ? await trx(resource.name).whereNot({ synced_run: run.runId }).delete() : 0;
      await this.saveState(trx, resource, { watermark: run.watermark, checkpoint: null });
      return { deleted: Number(deleted) };
    });
  }

  async readAll(resource: ResourceSpec): Promise<Record<string, unknown>[]> {
    const db = await this.knex();
    const rows: Record<string, unknown>[] = await db(resource.name).orderBy('id');
    return rows.map((row) => this.toRecord(resource, row));
  }

  async hasMirror(resource: ResourceSpec): Promise<boolean> {
    // Opening a missing SQLite file would create it: a read-only caller must find nothing instead.
    const filename = (this.config.connection as { filename?: string } | undefined)?.filename;
    if (this.kind === 'sqlite' && filename && !this.connection && !existsSync(filename)) return false;
    const db = await this.knex();
    return (await db.schema.hasTable(resource.name)) && (await db.schema.hasColumn(resource.name, 'synced_run'));
  }

  async countRows(resource: ResourceSpec): Promise<number> {
    const db = await this.knex();
    const row = await db(resource.name).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  async readByIds(resource: ResourceSpec, ids: string[]): Promise<Record<string, unknown>[]> {
    if (ids.length === 0) return [];
    const db = await this.knex();
    const rows: Record<string, unknown>[] = await db(resource.name).whereIn('id', ids);
    return rows.map((row) => this.toRecord(resource, row));
  }

  async idsAfter(resource: ResourceSpec, after: string | null, limit: number): Promise<string[]> {
    const db = await this.knex();
    const query = db(resource.name).select('id').orderBy('id').limit(limit);
    if (after !== null) query.where('id', '>', after);
    return (await query).map((row: { id: unknown }) => String(row.id));
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
    await (await this.connection).destroy();
  }
}
