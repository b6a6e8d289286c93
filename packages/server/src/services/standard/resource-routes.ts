import { type EndpointDefinition, type StandardResource, standardResources } from '@vsf/contract';
import { RESOURCE_TABLES } from '../../repositories/resource-tables.js';
import type { Executor, TeamScopedTable } from '../../repositories/team-scoped-table.js';
import { checkReferences, type Reference } from '../check-references.js';

/** What the contract says of one resource's standard operations, read once by SDK namespace. */
export type ResourceRoutes = StandardResource;

export function resourceRoutes(namespace: string): ResourceRoutes {
  const routes = standardResources().get(namespace);
  if (!routes) throw new Error(`The contract declares no standard resource "${namespace}"`);
  return routes;
}

/** The resource a body field or path parameter names by its id (`customerId` → customers), if any. */
// biome-ignore lint/suspicious/noExplicitAny: a reference may name a table of any record type.
export function referencedResource(param: string): (ResourceRoutes & { table: TeamScopedTable<any> }) | undefined {
  for (const routes of standardResources().values()) {
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
