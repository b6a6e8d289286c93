import type { Knex } from 'knex';

export type Executor = Knex | Knex.Transaction;

export interface ListOptions {
  page: number;
  limit: number;
  updatedAfter?: Date | undefined;
  ids?: string[] | undefined;
}

export interface ListResult<R> {
  records: R[];
  total: number;
}

/** Fields to write; undefined ones are left alone, as in a PATCH body. */
export type Changes<R> = { [K in keyof R]?: R[K] | undefined };

type FieldKind = 'plain' | 'timestamp' | 'number' | 'json';

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * One team-owned table. Every method takes the team id and every query it builds is filtered by it,
 * so a service cannot read or change another team's rows by forgetting a WHERE clause.
 */
export class TeamScopedTable<R extends { id: string }> {
  private readonly kinds: [field: string, column: string, kind: FieldKind][];

  constructor(
    readonly table: string,
    fields: readonly (keyof R & string)[],
    kinds: Partial<Record<keyof R & string, FieldKind>> = {},
  ) {
    this.kinds = fields.map((f) => [f, snake(f), kinds[f] ?? (f.endsWith('At') ? 'timestamp' : 'plain')]);
  }

  column(field: keyof R & string): string {
    return `${this.table}.${snake(field)}`;
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
    const query = this.scoped(db, teamId).where(`${this.table}.id`, id).first();
    if (options.forUpdate) query.forUpdate();
    const row = await query;
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
   * costs many times page 1. Pages after the first are therefore found by a seek: the page's first
   * key `(updated_at, id)` is read at the offset from the `(team_id, updated_at, id)` index alone (an
   * index-only scan touches no rows), then the page is read from that key on. The order is total
   * (`id` breaks ties), so the seek returns exactly the rows `OFFSET` would. The count runs beside
   * the page, not after it.
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
    const [countRow, rows] = await Promise.all([
      base.clone().count({ count: '*' }).first(),
      this.page(db, base, options),
    ]);
    return { records: rows.map((r) => this.toRecord(r)), total: Number(countRow?.count ?? 0) };
  }

  private async page(db: Executor, base: Knex.QueryBuilder, options: ListOptions): Promise<Record<string, unknown>[]> {
    const updatedAt = `${this.table}.updated_at`;
    const id = `${this.table}.id`;
    const ordered = (query: Knex.QueryBuilder) =>
      query.orderBy([
        { column: updatedAt, order: 'desc' },
        { column: id, order: 'desc' },
      ]);
    const offset = (options.page - 1) * options.limit;
    const page = ordered(base.clone().select(`${this.table}.*`)).limit(options.limit);
    if (offset === 0) return page;
    // One statement, so the key never round-trips through a JS Date; LATERAL makes PostgreSQL use the
    // key as an index bound (as a plain join it filters the whole team instead).
    const seek = ordered(base.clone().select(updatedAt, id)).offset(offset).limit(1);
    page.whereRaw(`(${updatedAt}, ${id}) <= (seek.updated_at, seek.id)`);
    const { rows } = await db.raw(
      'select page.* from (?) as seek cross join lateral (?) as page order by page.updated_at desc, page.id desc',
      [seek, page],
    );
    return rows;
  }

  async insert(db: Executor, teamId: string, values: Changes<R> & { id: string }, now: Date): Promise<R> {
    const row = { ...this.toRow(values), team_id: teamId, created_at: now, updated_at: now };
    const [inserted] = await db(this.table).insert(row).returning('*');
    return this.toRecord(inserted);
  }

  /** Applies the changed fields and bumps `updated_at`; undefined when the team has no such row. */
  async update(db: Executor, teamId: string, id: string, values: Changes<R>, now: Date): Promise<R | undefined> {
    const [updated] = await this.scoped(db, teamId)
      .where(`${this.table}.id`, id)
      .update({ ...this.toRow(values), updated_at: now })
      .returning('*');
    return updated ? this.toRecord(updated) : undefined;
  }

  async delete(db: Executor, teamId: string, id: string): Promise<boolean> {
    // `returning` rather than the affected-row count, which knex-pglite does not report.
    const deleted = await this.scoped(db, teamId).where(`${this.table}.id`, id).delete().returning('id');
    return deleted.length > 0;
  }
}
