import { apiEndpoints, type EndpointDefinition, eventResourceName, pathParamNames } from '@vsf/contract';
import type { Executor, TeamScopedTable } from '../../repositories/team-scoped-table.js';
import { checkReferences, type Reference } from '../check-references.js';
import { RESOURCE_TABLES } from './resource-tables.js';

/** What the contract says of one resource's standard operations, read once by SDK namespace. */
export interface ResourceRoutes {
  readonly namespace: string;
  readonly endpoints: Partial<Record<StandardOperation, EndpointDefinition>>;
  /** The record in `<label> not found` (`Parking zone`). */
  readonly label: string;
  /** The item's path parameter, which is also how bodies name a reference to it (`parkingZoneId`). */
  readonly itemParam: string;
  /** The path parameters of the collection: the parents' ids, each also a field of the record (`formId`). */
  readonly parentParams: readonly string[];
  /** The record's name in the contract, snake_case (`getCarPhoto` → `car_photo`): its events' `resource`. */
  readonly eventResource: string;
}

export type StandardOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

const STANDARD = new Set<string>(['list', 'get', 'create', 'update', 'delete']);

function readRoutes(): Map<string, ResourceRoutes> {
  const byNamespace = new Map<string, Partial<Record<StandardOperation, EndpointDefinition>>>();
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    if (endpoint.surface !== 'v1' || !STANDARD.has(endpoint.sdk.method)) continue;
    const namespace = endpoint.sdk.namespace.join('.');
    byNamespace.set(namespace, { ...byNamespace.get(namespace), [endpoint.sdk.method]: endpoint });
  }
  const routes = new Map<string, ResourceRoutes>();
  for (const [namespace, endpoints] of byNamespace) {
    const item = endpoints.get ?? endpoints.update ?? endpoints.delete;
    const collection = endpoints.list ?? endpoints.create;
    if (!item?.resourceName || !collection) continue;
    const itemParams = pathParamNames(item.path);
    routes.set(namespace, {
      namespace,
      endpoints,
      label: item.resourceName,
      itemParam: itemParams[itemParams.length - 1] as string,
      parentParams: pathParamNames(collection.path),
      eventResource: eventResourceName((endpoints.get ?? collection).operationId),
    });
  }
  return routes;
}

const ROUTES = readRoutes();

export function resourceRoutes(namespace: string): ResourceRoutes {
  const routes = ROUTES.get(namespace);
  if (!routes) throw new Error(`The contract declares no standard resource "${namespace}"`);
  return routes;
}

/** The resource a body field or path parameter names by its id (`customerId` → customers), if any. */
// biome-ignore lint/suspicious/noExplicitAny: a reference may name a table of any record type.
export function referencedResource(param: string): (ResourceRoutes & { table: TeamScopedTable<any> }) | undefined {
  for (const routes of ROUTES.values()) {
    const table = RESOURCE_TABLES[routes.namespace];
    if (routes.itemParam === param && table) return { ...routes, table };
  }
  return undefined;
}

/**
 * Checks that every id the body carries in the endpoint's declared `references` is one of the team's own
 * records; the contract's list is the one the tenant-isolation suites probe, so the two cannot drift.
 */
export function checkBodyReferences(
  db: Executor,
  teamId: string,
  endpoint: EndpointDefinition | undefined,
  body: Record<string, unknown>,
): Promise<void> {
  const references: Reference[] = [];
  for (const field of endpoint?.references ?? []) {
    const target = referencedResource(field);
    if (!target) throw new Error(`${endpoint?.operationId}: no team resource is named by the reference "${field}"`);
    references.push({
      path: field,
      id: body[field] as string | null | undefined,
      table: target.table,
      resource: target.label,
    });
  }
  return checkReferences(db, teamId, references);
}
