import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { notFound } from '../../errors/api-http-error.js';
import type { Changes, ListResult, TeamScopedTable } from '../../repositories/team-scoped-table.js';
import type { ServiceDeps } from '../service-deps.js';
import { type ConflictMessages, mapConflicts } from './constraint-conflicts.js';
import { checkBodyReferences, type ResourceRoutes, referencedResource, resourceRoutes } from './resource-routes.js';
import { RESOURCE_TABLES } from './resource-tables.js';

/** Query keys every list has; the table's `list` reads them. */
const PAGING = new Set(['page', 'limit', 'updatedAfter', 'ids']);

type Record_ = { id: string };
type Body = Record<string, unknown>;
type Query = Record<string, unknown> & { page: number; limit: number };

/** Narrows a list by one query value; `column` names a record field's column in this table. */
export type ListFilter<R> = (
  query: Knex.QueryBuilder,
  value: unknown,
  column: (field: keyof R & string) => string,
) => void;

/** What a resource says beyond its contract declaration and its table; most say nothing or one line. */
export interface TeamResourceOptions<R extends Record_> {
  /** Values a create starts from; the body's fields replace them. */
  readonly defaults?: Changes<R>;
  /**
   * List filters that are not "this record field equals the value" (those are derived from the contract's
   * filters). Each is called for every list, with `undefined` when the caller did not send it.
   */
  readonly filters?: Readonly<Record<string, ListFilter<R>>>;
  readonly conflicts?: ConflictMessages;
}

/**
 * A team's records of one resource, served as its contract declares: list, get, create, update, delete,
 * nested under the parents its path names. Every query is the table's, so it is scoped to the team; ids a
 * body points at are checked to be the team's own (the contract's `references`); a path's parent must
 * exist and own the record; constraint violations become 409s with the resource's messages.
 * Resources with behaviour of their own extend this class and replace what differs.
 */
export class TeamResource<R extends Record_> {
  protected readonly routes: ResourceRoutes;
  protected readonly table: TeamScopedTable<R>;
  private readonly equalityFilters: string[];

  constructor(
    protected readonly deps: ServiceDeps,
    namespace: string,
    protected readonly options: TeamResourceOptions<R> = {},
  ) {
    this.routes = resourceRoutes(namespace);
    const table = RESOURCE_TABLES[namespace] as TeamScopedTable<R> | undefined;
    if (!table) throw new Error(`${namespace}: RESOURCE_TABLES names no table for it`);
    this.table = table;
    const filters = Object.keys(this.routes.endpoints.list?.query?.shape ?? {}).filter((key) => !PAGING.has(key));
    this.equalityFilters = filters.filter((key) => !options.filters?.[key]);
    // A filter the contract promises but nothing applies would silently return every row: refuse to start.
    for (const key of [...this.equalityFilters, ...this.routes.parentParams]) {
      if (!table.hasField(key as keyof R & string)) {
        throw new Error(`${namespace}: "${key}" is neither a column of ${table.table} nor a declared filter`);
      }
    }
  }

  /** The `<label> not found` error of this resource. */
  protected missing() {
    return notFound(this.routes.label);
  }

  async list(teamId: string, ...args: unknown[]): Promise<ListResult<R>> {
    const parentIds = await this.parents(teamId, args);
    const query = args[this.routes.parentParams.length] as Query;
    return this.table.list(this.deps.db, teamId, query, (q) => {
      this.whereParents(q, parentIds);
      for (const key of this.equalityFilters) {
        if (query[key] !== undefined) q.where(this.table.column(key as keyof R & string), query[key] as string);
      }
      const column = (field: keyof R & string) => this.table.column(field);
      for (const [key, apply] of Object.entries(this.options.filters ?? {})) apply(q, query[key], column);
    });
  }

  async get(teamId: string, ...ids: string[]): Promise<R> {
    const record = await this.table.findById(this.deps.db, teamId, ids[ids.length - 1] as string);
    if (!record || !this.ownedBy(record, ids)) throw this.missing();
    return record;
  }

  async create(teamId: string, ...args: unknown[]): Promise<R> {
    const parentIds = await this.parents(teamId, args);
    const body = args[parentIds.length] as Body;
    await checkBodyReferences(this.deps.db, teamId, this.routes.endpoints.create, body);
    const values = { ...this.options.defaults, ...body, ...this.parentFields(parentIds), id: randomUUID() };
    return mapConflicts(this.writeConflicts, () =>
      this.table.insert(this.deps.db, teamId, values as Changes<R> & { id: string }, this.deps.now()),
    );
  }

  async update(teamId: string, ...args: unknown[]): Promise<R> {
    const ids = args.slice(0, -1) as string[];
    const body = args[args.length - 1] as Body;
    const endpoint = this.routes.endpoints.update;
    // A missing record is a 404 before its body's references are looked at, as for every other check.
    if (endpoint?.references?.length || this.routes.parentParams.length > 0) await this.get(teamId, ...ids);
    await checkBodyReferences(this.deps.db, teamId, endpoint, body);
    const updated = await mapConflicts(this.writeConflicts, () =>
      this.table.update(this.deps.db, teamId, ids[ids.length - 1] as string, body as Changes<R>, this.deps.now()),
    );
    if (!updated) throw this.missing();
    return updated;
  }

  async delete(teamId: string, ...ids: string[]): Promise<{ id: string; deleted: true }> {
    const id = ids[ids.length - 1] as string;
    if (this.routes.parentParams.length > 0) await this.get(teamId, ...ids);
    const deleted = await mapConflicts({ inUse: this.options.conflicts?.inUse }, () =>
      this.table.delete(this.deps.db, teamId, id),
    );
    if (!deleted) throw this.missing();
    return { id, deleted: true };
  }

  /** A create or update meets only unique keys: its references were checked before it ran. */
  protected get writeConflicts(): ConflictMessages {
    return { duplicate: this.options.conflicts?.duplicate };
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

  private whereParents(query: Knex.QueryBuilder, parentIds: readonly string[]): void {
    for (const [field, id] of Object.entries(this.parentFields(parentIds))) {
      query.where(this.table.column(field as keyof R & string), id);
    }
  }

  /** A nested record is found only under its own parents' path. */
  private ownedBy(record: R, ids: readonly string[]): boolean {
    const fields = this.parentFields(ids);
    return Object.entries(fields).every(([field, id]) => (record as Record<string, unknown>)[field] === id);
  }
}
