import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { notFound } from '../../errors/api-http-error.js';
import { RESOURCE_TABLES } from '../../repositories/resource-tables.js';
import type { Changes, Executor, ListResult, TeamScopedTable } from '../../repositories/team-scoped-table.js';
import type { ServiceDeps } from '../service-deps.js';
import { type ConflictMessages, mapConflicts } from './constraint-conflicts.js';
import { checkBodyReferences, type ResourceRoutes, referencedResource, resourceRoutes } from './resource-routes.js';

/** Query keys every list has; the table's `list` reads them. */
const PAGING = new Set(['page', 'limit', 'updatedAfter', 'ids']);

type Identified = { id: string };
export type Body = Record<string, unknown>;
type Query = Record<string, unknown> & { page: number; limit: number };

/**
 * Narrows a list by one query value; `column` names a row field's column in this table, and `request` is
 * the whole list query, for a filter whose default depends on another parameter (`updatedAfter`).
 */
export type ListFilter<Row> = (
  query: Knex.QueryBuilder,
  value: unknown,
  column: (field: keyof Row & string) => string,
  request: Readonly<Record<string, unknown>>,
) => void;

/** What a resource says beyond its contract declaration and its table; most say nothing or one line. */
export interface TeamResourceOptions<R extends Identified, Row extends Identified = R> {
  /** Values a create starts from; the body's fields replace them. */
  readonly defaults?: Changes<Row>;
  /** Values every row of this resource has, in a table it shares with others (`kind: 'car_photo'`). */
  readonly fixed?: Changes<Row>;
  /**
   * List filters that are not "this record field equals the value" (those are derived from the contract's
   * filters). Each is called for every list, with `undefined` when the caller did not send it.
   */
  readonly filters?: Readonly<Record<string, ListFilter<Row>>>;
  /** A unique key the write would duplicate; a function to name the value sent. (A delete's is the contract's `inUse`.) */
  readonly conflicts?: { readonly duplicate?: string | ((body: Body) => string) };
  /** The row as the API shows it, where the two differ. */
  readonly present?: (row: Row) => R;
  /** The row fields a create or update body writes, where the two differ. */
  readonly write?: (body: Body) => Changes<Row>;
}

/**
 * A team's records of one resource, served as its contract declares: list, get, create, update, delete,
 * nested under the parents its path names. Every query is the table's, so it is scoped to the team; ids a
 * body points at are checked to be the team's own (the contract's `references`); a path's parents must
 * exist and own the record; constraint violations become 409s with the resource's messages.
 * Resources with behaviour of their own extend this class and replace what differs.
 */
export class TeamResource<R extends Identified, Row extends Identified = R> {
  protected readonly routes: ResourceRoutes;
  protected readonly table: TeamScopedTable<Row>;
  private readonly equalityFilters: string[];

  constructor(
    protected readonly deps: ServiceDeps,
    namespace: string,
    protected readonly options: TeamResourceOptions<R, Row> = {},
  ) {
    this.routes = resourceRoutes(namespace);
    const table = RESOURCE_TABLES[namespace] as TeamScopedTable<Row> | undefined;
    if (!table) throw new Error(`${namespace}: RESOURCE_TABLES names no table for it`);
    this.table = table;
    const filters = Object.keys(this.routes.endpoints.list?.query?.shape ?? {}).filter((key) => !PAGING.has(key));
    this.equalityFilters = filters.filter((key) => !options.filters?.[key]);
    // A filter the contract promises but nothing applies would silently return every row: refuse to start.
    for (const key of [...this.equalityFilters, ...this.routes.parentParams]) {
      if (!table.hasField(key)) {
        throw new Error(`${namespace}: "${key}" is neither a column of ${table.table} nor a declared filter`);
      }
    }
  }

  /** The `<label> not found` error of this resource. */
  protected missing() {
    return notFound(this.routes.label);
  }

  protected present(row: Row): R {
    return this.options.present ? this.options.present(row) : (row as unknown as R);
  }

  /**
   * Stored rows (an event's, as the database wrote them) as `GET` shows them; undefined for a row of a
   * shared table that is another resource's. Resources whose record joins other tables override it.
   */
  async recordsOf(_teamId: string, rows: readonly Record<string, unknown>[]): Promise<(R | undefined)[]> {
    return rows.map((stored) => {
      const row = this.table.toRecord(stored);
      const fixed = Object.entries(this.options.fixed ?? {}) as [string, unknown][];
      return fixed.every(([field, value]) => (row as Record<string, unknown>)[field] === value)
        ? this.present(row)
        : undefined;
    });
  }

  /** The contract's name of this resource's records, in snake_case (`car_photo`): an event's `resource`. */
  get eventResource(): string {
    return this.routes.eventResource;
  }

  /** What a key needs to read this resource's records, and so to see their events. */
  get readScopes() {
    return (this.routes.endpoints.get ?? this.routes.endpoints.list)?.scopes;
  }

  get storageTable(): string {
    return this.table.table;
  }

  async list(teamId: string, ...args: unknown[]): Promise<ListResult<R>> {
    const parentIds = await this.parents(teamId, args);
    const query = args[this.routes.parentParams.length] as Query;
    // Nothing narrows the list: its total is the team's row count, not a count(*) over its rows.
    const unfiltered =
      this.routes.parentParams.length === 0 &&
      !this.options.fixed &&
      !this.options.filters &&
      this.equalityFilters.every((key) => query[key] === undefined);
    const result = await this.table.list(this.deps.db, teamId, { ...query, unfiltered }, (q) => {
      this.whereOwn(q, parentIds);
      for (const key of this.equalityFilters) {
        if (query[key] !== undefined) q.where(this.table.column(key as keyof Row & string), query[key] as string);
      }
      const column = (field: keyof Row & string) => this.table.column(field);
      for (const [key, apply] of Object.entries(this.options.filters ?? {})) apply(q, query[key], column, query);
    });
    return { records: result.records.map((row) => this.present(row)), total: result.total };
  }

  async get(teamId: string, ...ids: string[]): Promise<R> {
    return this.present(await this.findRow(teamId, ids));
  }

  /**
   * Whether `create` does nothing outside this database before its first query, so that an idempotent create
   * may claim its key in the same message as that query (idempotent-execution.ts). True of this class's own
   * `create`; a resource that replaces it is claimed first unless it says so again.
   */
  get createTouchesOnlyTheDatabase(): boolean {
    return this.create === TeamResource.prototype.create;
  }

  async create(teamId: string, ...args: unknown[]): Promise<R> {
    const parentIds = await this.parents(teamId, args);
    const body = args[parentIds.length] as Body;
    await checkBodyReferences(this.deps.db, teamId, this.routes.endpoints.create, body);
    const values = {
      ...this.options.defaults,
      ...this.written(body),
      ...this.options.fixed,
      ...this.parentFields(parentIds),
      id: randomUUID(),
    };
    const row = await mapConflicts(this.writeConflicts(body), () =>
      this.table.insert(this.deps.db, teamId, values as Changes<Row> & { id: string }, this.deps.now()),
    );
    return this.present(row);
  }

  async update(teamId: string, ...args: unknown[]): Promise<R> {
    const ids = args.slice(0, -1) as string[];
    const body = args[args.length - 1] as Body;
    const endpoint = this.routes.endpoints.update;
    // A missing record is a 404 before its body's references are looked at, as for every other check.
    if (endpoint?.references?.length || this.isNested) await this.findRow(teamId, ids);
    await checkBodyReferences(this.deps.db, teamId, endpoint, body);
    const updated = await mapConflicts(this.writeConflicts(body), () =>
      this.table.update(this.deps.db, teamId, ids[ids.length - 1] as string, this.written(body), this.deps.now()),
    );
    if (!updated) throw this.missing();
    return this.present(updated);
  }

  async delete(teamId: string, ...ids: string[]): Promise<{ id: string; deleted: true }> {
    const id = ids[ids.length - 1] as string;
    if (this.isNested || this.options.fixed) await this.findRow(teamId, ids);
    const deleted = await mapConflicts({ inUse: this.inUseMessage }, () => this.table.delete(this.deps.db, teamId, id));
    if (!deleted) throw this.missing();
    return { id, deleted: true };
  }

  /** The stored row at the path's ids (parents first), or the 404 the first missing one answers. */
  protected async findRow(
    teamId: string,
    ids: readonly string[],
    db: Executor = this.deps.db,
    options: { forUpdate?: boolean } = {},
  ): Promise<Row> {
    await this.parents(teamId, ids);
    const row = await this.table.findById(db, teamId, ids[ids.length - 1] as string, options);
    if (!row || !this.owns(row, ids)) throw this.missing();
    return row;
  }

  /**
   * A delete that other records still point at: the contract's message, or one that says as much. The
   * database's foreign keys decide, so the answer is true whichever record refers to it.
   */
  protected get inUseMessage(): string {
    return (
      this.routes.endpoints.delete?.inUse ??
      `${this.routes.label} is still referred to by other records; change or delete those first`
    );
  }

  /** A create or update meets only unique keys: its references were checked before it ran. */
  protected writeConflicts(body: Body): ConflictMessages {
    const duplicate = this.options.conflicts?.duplicate;
    return { duplicate: typeof duplicate === 'function' ? duplicate(body) : duplicate };
  }

  protected written(body: Body): Changes<Row> {
    return (this.options.write ? this.options.write(body) : body) as Changes<Row>;
  }

  private get isNested(): boolean {
    return this.routes.parentParams.length > 0;
  }

  /** The path's parent ids, each checked to be one of the team's records (a 404 naming the parent). */
  protected async parents(teamId: string, args: readonly unknown[]): Promise<string[]> {
    const parentIds = args.slice(0, this.routes.parentParams.length) as string[];
    for (const [index, param] of this.routes.parentParams.entries()) {
      const parent = referencedResource(param);
      if (!parent) throw new Error(`${this.routes.namespace}: no team resource is named by "${param}"`);
      if (!(await parent.table.exists(this.deps.db, teamId, parentIds[index] as string))) {
        throw notFound(parent.label);
      }
    }
    return parentIds;
  }

  protected parentFields(parentIds: readonly string[]): Record<string, string> {
    return Object.fromEntries(this.routes.parentParams.map((param, index) => [param, parentIds[index] as string]));
  }

  /** Only this resource's rows under the path's parents. */
  private whereOwn(query: Knex.QueryBuilder, parentIds: readonly string[]): void {
    const own = { ...this.options.fixed, ...this.parentFields(parentIds) } as Record<string, unknown>;
    for (const [field, value] of Object.entries(own)) {
      query.where(this.table.column(field as keyof Row & string), value as string);
    }
  }

  /** A nested record is found only under its own parents' path, a shared table's only as its own kind. */
  private owns(row: Row, ids: readonly string[]): boolean {
    const own = { ...this.options.fixed, ...this.parentFields(ids) } as Record<string, unknown>;
    return Object.entries(own).every(([field, value]) => (row as Record<string, unknown>)[field] === value);
  }
}
