import { type ColumnKind, type RecordColumn, recordColumns, snakeCase } from '@vsf/contract';
import type { Knex } from 'knex';
import type { Executor } from './executor.js';
import { HotStatement, StatementCache } from './hot-statement.js';
import { type Anchor, PageAnchors } from './page-anchors.js';
import { teamRowCount, teamRowCountSql } from './team-row-counts.js';

export type { Executor };

export interface ListOptions {
  page: number;
  limit: number;
  updatedAfter?: Date | undefined;
  ids?: string[] | undefined;
  /** The caller's filter narrows nothing: `total` is the team's row count, kept by the database. */
  unfiltered?: boolean | undefined;
}

export interface ListResult<R> {
  records: R[];
  total: number;
}

/** Fields to write; undefined ones are left alone, as in a PATCH body. */
export type Changes<R> = { [K in keyof R]?: R[K] | undefined };

type FieldKind = 'plain' | 'timestamp' | 'number' | 'json';

/** Where every table's lists' recent pages ended, in this process (page-anchors.ts). */
const pageAnchors = new PageAnchors();

/** A page's rows as read, with the anchor columns `page` adds. */
type PageRow = Record<string, unknown> & { vsf_key_at?: string; vsf_version?: string | null };

/** What a column's value needs between the driver and the API: ISO strings, numbers, JSON text. */
const fieldKind = (kind: ColumnKind): FieldKind =>
  kind === 'timestamp'
    ? 'timestamp'
    : kind === 'integer' || kind === 'number'
      ? 'number'
      : kind === 'json'
        ? 'json'
        : 'plain';

/**
 * One team-owned table. Every method takes the team id and every query it builds is filtered by it,
 * so a service cannot read or change another team's rows by forgetting a WHERE clause.
 */
export class TeamScopedTable<R extends { id: string }> {
  private readonly kinds: [field: string, column: string, kind: FieldKind][];
  /** One row by id, the request path's most frequent read, without the query builder (hot-statement.ts). */
  private readonly byId: HotStatement;
  private readonly byIdForUpdate: HotStatement;
  /** Inserts and updates by the columns they write: a body sends one of a few field sets, each prepared once. */
  private readonly writes = new StatementCache();
  /**
   * The version of a team's rows, read in the same statement as a page: null unless the table's events
   * trigger is on (migration 024), else the trigger row's and the team's feed head's row versions with the
   * newest event waiting in the team's inbox (034). Every committed write of the team's rows adds an inbox
   * row (the trigger runs in the writing transaction), and numbering the inbox moves the head, so the
   * version never comes back; turning the trigger off and on again rewrites its `pg_trigger` row, so
   * writes made while it was off move the version too.
   */
  private readonly versionSql: string;

  constructor(
    readonly table: string,
    /** The columns the table reads and writes; a test checks the migrations create each of them. */
    readonly columns: readonly RecordColumn[],
  ) {
    this.kinds = columns.map((c) => [c.field, c.column, fieldKind(c.kind)]);
    const byId = `select * from "${table}" where team_id = ? and id = ? limit 1`;
    this.byId = new HotStatement(byId);
    this.byIdForUpdate = new HotStatement(`${byId} for update`);
    this.versionSql =
      `(select t.xmin::text from pg_trigger t where t.tgrelid = '"${table}"'::regclass ` +
      `and t.tgname = '${table}_record_events' and t.tgenabled in ('O', 'A')) || ':' || ` +
      "(select coalesce(h.xmin::text || ':' || h.last_cursor, '-') || ':' || " +
      "coalesce((select max(i.id) from team_event_inbox i where i.team_id = t.team_id)::text, '-') " +
      'from (select ?::uuid as team_id) t left join team_event_heads h on h.team_id = t.team_id)';
  }

  /** The table of an API record: its columns are the record schema's (recordColumns). */
  static of<R extends { id: string }>(table: string, record: Parameters<typeof recordColumns>[0]): TeamScopedTable<R> {
    return new TeamScopedTable<R>(table, recordColumns(record));
  }

  /**
   * The table of a storage row that is not an API record (media bytes' metadata, a record stored in
   * other columns): its fields, text unless `kinds` says otherwise (`…At` fields are timestamps).
   */
  static ofRow<R extends { id: string }>(
    table: string,
    fields: readonly (keyof R & string)[],
    kinds: Partial<Record<keyof R & string, ColumnKind>> = {},
  ): TeamScopedTable<R> {
    const kindOf = (f: keyof R & string): ColumnKind => kinds[f] ?? (f.endsWith('At') ? 'timestamp' : 'text');
    return new TeamScopedTable<R>(
      table,
      fields.map((field) => ({ field, column: snakeCase(field), kind: kindOf(field) })),
    );
  }

  column(field: keyof R & string): string {
    return `${this.table}.${snakeCase(field)}`;
  }

  hasField(field: string): boolean {
    return this.kinds.some(([name]) => name === field);
  }

  /** A query on this table already restricted to one team. */
  scoped(db: Executor, teamId: string): Knex.QueryBuilder {
    return db(this.table).where(`${this.table}.team_id`, teamId);
  }

  toRecord(row: Record<string, unknown>): R {
    const record: Record<string, unknown> = {};
    for (const [field, column, kind] of this.kinds) {
      const value = row[column];
      if (value === null || value === undefined) record[field] = null;
      else if (kind === 'timestamp')
        record[field] = (value instanceof Date ? value : new Date(String(value))).toISOString();
      else if (kind === 'number') record[field] = Number(value);
      else record[field] = value;
    }
    return record as R;
  }

  /** Maps the record fields present in `values` to columns; absent (undefined) fields are left out. */
  toRow(values: Changes<R>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [field, column, kind] of this.kinds) {
      const value = values[field as keyof R & string];
      if (value === undefined) continue;
      row[column] = kind === 'json' && value !== null ? JSON.stringify(value) : value;
    }
    return row;
  }

  async findById(
    db: Executor,
    teamId: string,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<R | undefined> {
    const [row] = await (options.forUpdate ? this.byIdForUpdate : this.byId).rows(db, [teamId, id]);
    return row ? this.toRecord(row) : undefined;
  }

  async exists(db: Executor, teamId: string, id: string): Promise<boolean> {
    const row = await this.scoped(db, teamId).where(`${this.table}.id`, id).first(`${this.table}.id`);
    return row !== undefined;
  }

  /**
   * One page in the API's order (`updated_at desc, id desc`) and the total matching rows.
   *
   * A deep `OFFSET` over `select *` reads every skipped row from the heap, so page 500 of a big team
   * costs many times page 1: pages after the first are found by a seek over the index alone (`seekPage`),
   * or, walking a list page after page, from where the page before ended (`page`). The order is total
   * (`id` breaks ties), so both return exactly the rows `OFFSET` would. The count runs beside the page.
   */
  async list(
    db: Executor,
    teamId: string,
    options: ListOptions,
    filter: (query: Knex.QueryBuilder) => void = () => {},
  ): Promise<ListResult<R>> {
    const base = this.scoped(db, teamId);
    filter(base);
    if (options.updatedAfter) base.where(`${this.table}.updated_at`, '>=', options.updatedAfter);
    if (options.ids)
      base.whereIn(`${this.table}.id`, options.ids.length > 0 ? options.ids : ['00000000-0000-0000-0000-000000000000']);
    const whole = options.unfiltered && !options.updatedAfter && !options.ids;
    const counted = whole
      ? teamRowCount(db, teamId, this.table)
      : base
          .clone()
          .count({ count: '*' })
          .first()
          .then((row) => Number(row?.count ?? 0));
    const [total, rows] = await Promise.all([
      counted,
      this.page(db, teamId, base, options, whole ? counted : undefined),
    ]);
    return { records: rows.map((r) => this.toRecord(r)), total };
  }

  /**
   * The page's rows. An unfiltered list read outside a transaction (a transaction sees its own writes before
   * they move the version) starts from the nearest anchor a page before it left, when that anchor is still
   * at the team's current version, and leaves one for the page after it.
   */
  private async page(
    db: Executor,
    teamId: string,
    base: Knex.QueryBuilder,
    options: ListOptions,
    /** The team's row count being read, when the list is its whole table: pages can be sought from the end. */
    wholeCount: Promise<number> | undefined,
  ): Promise<Record<string, unknown>[]> {
    const countedTeam = wholeCount ? teamId : undefined;
    const list = options.unfiltered && !db.isTransaction ? listSignature(base, options.limit) : undefined;
    if (!list) return this.seekPage(db, base, options, { countedTeam });
    let anchor = pageAnchors.nearest(list, options.page);
    // An anchor pages back (page 2, left by page 1) is a worse start than the end of the list for a page near
    // that end: the count, read beside the page anyway, says which is nearer.
    if (anchor && wholeCount && anchor.page < options.page) {
      const fromAnchor = (options.page - anchor.page) * options.limit;
      const fromEnd = (await wholeCount) - (options.page - 1) * options.limit;
      if (fromEnd < fromAnchor) anchor = undefined;
    }
    let rows = anchor ? await this.anchoredPage(db, teamId, base, options, anchor) : undefined;
    if (!rows) {
      if (anchor) pageAnchors.forget(list);
      rows = await this.seekPage(db, base, options, { versionOf: teamId, countedTeam });
    }
    const last = rows.at(-1);
    const version = rows[0]?.vsf_version;
    if (rows.length === options.limit && last?.vsf_key_at && version) {
      pageAnchors.remember(list, version, options.page + 1, { at: last.vsf_key_at, id: String(last.id) });
    }
    return rows;
  }

  private ordered(query: Knex.QueryBuilder, order: 'desc' | 'asc' = 'desc'): Knex.QueryBuilder {
    return query.orderBy([
      { column: `${this.table}.updated_at`, order },
      { column: `${this.table}.id`, order },
    ]);
  }

  /**
   * A page found by a seek: the page's first key `(updated_at, id)` is read at the offset from the
   * `(team_id, updated_at, id)` index alone (an index-only scan touches no rows), then the page is read
   * from that key on. Given `versionOf`, each row also carries its key as text and the team's version.
   *
   * Given `countedTeam` (the list is the team's whole table, whose row count the database keeps), a page
   * nearer the end than the start is found from the end: the seek counts the `total - 1 - offset` keys
   * after the page's first one in ascending order, so the last page of 100 000 cars skips 199 keys instead
   * of 99 800. The count is read in the seek's own statement, so both see the same rows and the page is
   * exactly the one `OFFSET` would give; a page past the end reads no key at all.
   */
  private async seekPage(
    db: Executor,
    base: Knex.QueryBuilder,
    options: ListOptions,
    { versionOf, countedTeam }: { versionOf?: string | undefined; countedTeam?: string | undefined } = {},
  ): Promise<PageRow[]> {
    const updatedAt = `${this.table}.updated_at`;
    const id = `${this.table}.id`;
    const offset = (options.page - 1) * options.limit;
    const page = this.ordered(base.clone().select(this.pageColumns(db, versionOf !== undefined))).limit(options.limit);
    if (offset === 0) {
      if (versionOf !== undefined) page.select(db.raw(`${this.versionSql} as vsf_version`, [versionOf]));
      return page;
    }
    // One statement, so the key never round-trips through a JS Date; LATERAL makes PostgreSQL use the
    // key as an index bound (as a plain join it filters the whole team instead).
    const seek =
      countedTeam === undefined
        ? this.ordered(base.clone().select(updatedAt, id)).offset(offset).limit(1)
        : this.seekFromNearerEnd(db, base, offset, countedTeam);
    page.whereRaw(`(${updatedAt}, ${id}) <= (seek.updated_at, seek.id)`);
    const version = versionOf !== undefined ? `, ${this.versionSql} as vsf_version` : '';
    const { rows } = await db.raw(
      `select page.*${version} from (?) as seek cross join lateral (?) as page order by page.updated_at desc, page.id desc`,
      versionOf !== undefined ? [versionOf, seek, page] : [seek, page],
    );
    return rows;
  }

  /**
   * The key at `offset` in the list's order, sought from whichever end of the team's rows is nearer. Each
   * branch's condition mentions no row, so PostgreSQL tests it once and never starts the other branch's scan.
   */
  private seekFromNearerEnd(db: Executor, base: Knex.QueryBuilder, offset: number, teamId: string): Knex.Raw {
    const updatedAt = `${this.table}.updated_at`;
    const id = `${this.table}.id`;
    const total = teamRowCountSql(db, teamId, this.table);
    // Keys after the page's first one: its offset counted from the end.
    const fromEnd = db.raw('? - 1 - ?', [total, offset]);
    const fromStart = this.ordered(base.clone().select(updatedAt, id))
      .whereRaw('? >= ?', [fromEnd, offset])
      .offset(offset)
      .limit(1);
    const fromEndSeek = this.ordered(base.clone().select(updatedAt, id), 'asc')
      .whereRaw('? < ?', [fromEnd, offset])
      .whereRaw('? >= 0', [fromEnd])
      // The Limit node reads its offset even when the condition above stops its scan: never negative.
      // knex takes a raw offset (querybuilder.js), though its types say number.
      .offset(db.raw('greatest(?, 0)', [fromEnd]) as unknown as number)
      .limit(1);
    return db.raw('(?) union all (?)', [fromStart, fromEndSeek]);
  }

  /**
   * The page read on from `anchor`: its first key is `(page - anchor.page) × limit` rows past the anchor, found
   * over the index alone as in `seekPage` (none to skip when the walk comes to the anchor's own page). Undefined
   * when the team's version has moved on since the anchor: the statement checks it before reading any row.
   */
  private async anchoredPage(
    db: Executor,
    teamId: string,
    base: Knex.QueryBuilder,
    options: ListOptions,
    anchor: Anchor,
  ): Promise<PageRow[] | undefined> {
    const updatedAt = `${this.table}.updated_at`;
    const id = `${this.table}.id`;
    const seek = this.ordered(base.clone().select(updatedAt, id))
      .whereRaw(`(${updatedAt}, ${id}) < (?::timestamptz, ?)`, [anchor.key.at, anchor.key.id])
      .whereRaw('v.vsf_version = ?', [anchor.version])
      .offset((options.page - anchor.page) * options.limit)
      .limit(1);
    const page = this.ordered(base.clone().select(this.pageColumns(db, true)))
      .whereRaw(`(${updatedAt}, ${id}) <= (seek.updated_at, seek.id)`)
      .limit(options.limit);
    // Left joins: one row, with the version, even when the page is empty or the version differs.
    const { rows } = (await db.raw(
      `select page.*, v.vsf_version from (select ${this.versionSql} as vsf_version) as v ` +
        'left join lateral (?) as seek on true left join lateral (?) as page on true ' +
        'order by page.updated_at desc, page.id desc',
      [teamId, seek, page],
    )) as { rows: PageRow[] };
    if (rows[0]?.vsf_version !== anchor.version) return undefined;
    return rows.filter((row) => row.id !== null && row.id !== undefined);
  }

  /** The table's columns, and with `keyed` the row's `updated_at` as PostgreSQL prints it (an anchor's key). */
  private pageColumns(db: Executor, keyed: boolean): (string | Knex.Raw)[] {
    const all = `${this.table}.*`;
    return keyed ? [all, db.raw(`${this.table}.updated_at::text as vsf_key_at`)] : [all];
  }

  async insert(db: Executor, teamId: string, values: Changes<R> & { id: string }, now: Date): Promise<R> {
    const row = { ...this.toRow(values), team_id: teamId, created_at: now, updated_at: now };
    const columns = Object.keys(row);
    const insert = this.writes.get(`insert ${columns}`, () => {
      const names = columns.map((column) => `"${column}"`).join(', ');
      return `insert into "${this.table}" (${names}) values (${columns.map(() => '?').join(', ')}) returning *`;
    });
    const [inserted] = await insert.rows(db, Object.values(row));
    return this.toRecord(inserted as Record<string, unknown>);
  }

  /** Applies the changed fields and bumps `updated_at`; undefined when the team has no such row. */
  async update(db: Executor, teamId: string, id: string, values: Changes<R>, now: Date): Promise<R | undefined> {
    const row = { ...this.toRow(values), updated_at: now };
    const columns = Object.keys(row);
    const update = this.writes.get(`update ${columns}`, () => {
      const assignments = columns.map((column) => `"${column}" = ?`).join(', ');
      return `update "${this.table}" set ${assignments} where team_id = ? and id = ? returning *`;
    });
    const [updated] = await update.rows(db, [...Object.values(row), teamId, id]);
    return updated ? this.toRecord(updated) : undefined;
  }

  async delete(db: Executor, teamId: string, id: string): Promise<boolean> {
    // `returning` rather than the affected-row count, which knex-pglite does not report.
    const deleted = await this.scoped(db, teamId).where(`${this.table}.id`, id).delete().returning('id');
    return deleted.length > 0;
  }
}

/** What identifies one list: its filtered query (team, filters and their values) and its page size. */
function listSignature(base: Knex.QueryBuilder, limit: number): string {
  const { sql, bindings } = base.toSQL();
  return `${limit} ${sql} ${JSON.stringify(bindings)}`;
}
