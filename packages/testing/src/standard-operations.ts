import type { EndpointDefinition } from '@vsf/contract';
import { type MockResource, referencedResource } from './contract-resources.js';
import { conflict, notFound, notImplemented, type ValidationDetail, validationFailed } from './mock-errors.js';
import type { MockKey } from './mock-keys.js';
import type { MockRecord, MockStore, TeamData } from './mock-store.js';

/** What an operation of the mock gets once the request passed authentication, scopes and validation. */
export interface OperationContext {
  readonly store: MockStore;
  readonly team: TeamData;
  readonly key: MockKey;
  readonly endpoint: EndpointDefinition;
  readonly resource: MockResource | undefined;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly body: Record<string, unknown>;
  readonly signal: AbortSignal | undefined;
}

/**
 * What a create starts from where the record has a field the body may leave out and the server's table or
 * service fills in (the migrations' defaults, the services' `defaults`); every other unset field is null.
 */
const DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  cars: { isForSale: false },
  customers: { isActive: true },
  contacts: { role: 'other', isPrimary: false, canAccessPortal: false },
  locations: { isActive: true },
  'parking.zones': { isActive: true },
  'parking.spots': { isActive: true },
  appointmentTypes: { isActive: true },
  'marketing.forms': { isActive: true },
  'marketing.socialAccounts': { isActive: true },
  'marketing.templates': { isActive: true, variables: [] },
  'marketing.campaigns': { status: 'draft' },
  'marketing.socialEvents': { status: 'scheduled' },
  'marketing.socialEvents.rsvpOptions': { description: null, attending: true, sortOrder: 0 },
};

export const defaultsOf = (namespace: string): Record<string, unknown> => ({ ...DEFAULTS[namespace] });

/** Query keys every list has, handled by `list` itself. */
const PAGING = new Set(['page', 'limit', 'updatedAfter', 'ids']);

/** A list filter that is not "this record field equals the value". */
export type ListFilter = (record: MockRecord, value: unknown, query: Record<string, unknown>) => boolean;

export function resourceOfContext(ctx: OperationContext): MockResource {
  if (!ctx.resource) throw new Error(`${ctx.endpoint.operationId}: not a standard operation of a resource`);
  return ctx.resource;
}

/** The path's parent records, each one of the team's (a 404 naming the parent otherwise). */
export function checkParents(ctx: OperationContext): void {
  for (const param of resourceOfContext(ctx).parentParams) {
    const parent = referencedResource(param);
    if (!parent) throw new Error(`no resource is named by the path parameter "${param}"`);
    if (!ctx.store.find(ctx.team, parent.namespace, ctx.params[param] as string)) throw notFound(parent.label);
  }
}

/** The record at the path (parents first): the team's own, under its own parents, or the resource's 404. */
export function findOwn(ctx: OperationContext): MockRecord {
  const resource = resourceOfContext(ctx);
  checkParents(ctx);
  const record = ctx.store.find(ctx.team, resource.namespace, ctx.params[resource.itemParam] as string);
  const owned = resource.parentParams.every((param) => record?.[param] === ctx.params[param]?.toLowerCase());
  if (!record || !owned) throw notFound(resource.label);
  return record;
}

/** Every id the body names in the endpoint's `references` is one of the team's records; all misses in one 400. */
export function checkReferences(ctx: OperationContext, fields = ctx.endpoint.references ?? []): void {
  const problems: ValidationDetail[] = [];
  for (const field of fields) {
    const id = ctx.body[field];
    const target = referencedResource(field);
    if (typeof id !== 'string' || !target) continue;
    if (!ctx.store.find(ctx.team, target.namespace, id))
      problems.push({ path: field, message: `${target.label} not found` });
  }
  if (problems.length > 0) throw validationFailed(problems);
}

/** Only the fields the record has: a body's instructions (`restore`, `send`) are the operation's business. */
function recordFields(resource: MockResource, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([field]) => resource.fields.includes(field)));
}

/**
 * A page in the API's order (`updatedAt desc, id desc`): `updatedAfter` inclusive, `ids`, the contract's
 * equality filters, and `filters` for the others. A filter the mock cannot apply is a 501, never ignored.
 */
export function list(ctx: OperationContext, filters: Readonly<Record<string, ListFilter>> = {}) {
  const resource = resourceOfContext(ctx);
  checkParents(ctx);
  const { page, limit, updatedAfter, ids } = ctx.query as {
    page: number;
    limit: number;
    updatedAfter?: Date;
    ids?: string[];
  };
  let records = [...ctx.store.team(ctx.team.name).table(resource.namespace).values()].filter((record) =>
    resource.parentParams.every((param) => record[param] === ctx.params[param]?.toLowerCase()),
  );
  for (const [key, value] of Object.entries(ctx.query)) {
    if (PAGING.has(key)) continue;
    const filter = filters[key];
    if (filter) records = records.filter((record) => filter(record, value, ctx.query));
    else if (value === undefined) continue;
    else if (resource.fields.includes(key)) records = records.filter((record) => record[key] === value);
    else throw notImplemented(ctx.endpoint.operationId, `with the \`${key}\` filter`);
  }
  // Filters that act when absent too (a customer list hides the soft-deleted unless asked).
  for (const [key, filter] of Object.entries(filters)) {
    if (!(key in ctx.query)) records = records.filter((record) => filter(record, undefined, ctx.query));
  }
  if (updatedAfter)
    records = records.filter((r) => typeof r.updatedAt === 'string' && new Date(r.updatedAt) >= updatedAfter);
  if (ids) {
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    records = records.filter((r) => wanted.has(r.id));
  }
  records.sort((a, b) => {
    const at = String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? ''));
    return at !== 0 ? at : b.id.localeCompare(a.id);
  });
  return {
    data: records.slice((page - 1) * limit, page * limit).map((r) => structuredClone(r)),
    page,
    limit,
    total: records.length,
  };
}

export function get(ctx: OperationContext) {
  return { data: structuredClone(findOwn(ctx)) };
}

/** A create as `TeamResource.create` does it: parents, references, defaults, the body, the parents' ids. */
export function create(ctx: OperationContext, extra: Record<string, unknown> = {}) {
  const resource = resourceOfContext(ctx);
  checkParents(ctx);
  checkReferences(ctx);
  const parents = Object.fromEntries(resource.parentParams.map((p) => [p, ctx.params[p]?.toLowerCase()]));
  const values = { ...DEFAULTS[resource.namespace], ...recordFields(resource, ctx.body), ...extra, ...parents };
  delete values.id;
  return { data: ctx.store.insert(ctx.team, resource.namespace, values) };
}

/** Only the fields sent change; a missing record is a 404 before its references are looked at. */
export function update(ctx: OperationContext, changes: Record<string, unknown> = ctx.body) {
  const resource = resourceOfContext(ctx);
  const record = findOwn(ctx);
  checkReferences(ctx);
  return { data: ctx.store.update(ctx.team, resource.namespace, record.id, recordFields(resource, changes)) };
}

/**
 * A hard delete; while another of the team's records names this one (its id in a field named like the
 * path parameter: a spot's `parkingZoneId`), a 409 with the contract's `inUse` message, as the server's
 * foreign keys answer.
 */
export function remove(ctx: OperationContext) {
  const resource = resourceOfContext(ctx);
  const record = findOwn(ctx);
  for (const [namespace, table] of ctx.team.records) {
    if (namespace === resource.namespace) continue;
    for (const other of table.values()) {
      if (other[resource.itemParam] === record.id) {
        throw conflict(
          ctx.endpoint.inUse ?? `${resource.label} is still referred to by other records; change or delete those first`,
        );
      }
    }
  }
  ctx.store.remove(ctx.team, resource.namespace, record.id);
  return { data: { id: record.id, deleted: true as const } };
}
