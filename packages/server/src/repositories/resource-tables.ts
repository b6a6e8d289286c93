import { apiEndpoints, type EndpointDefinition, resourceTableName, standardResources } from '@vsf/contract';
import type { z } from 'zod';
import { eventTypesTable, marketingAssetsTable, mediaTable, rsvpOptionsTable, webhooksTable } from './stored-tables.js';
import { TeamScopedTable } from './team-scoped-table.js';

/**
 * Tables that are not the contract's record stored as is: rows with columns the API does not show, or
 * shows reshaped (an event type's `config`), a table shared by two resources (`media`), or an older name.
 */
// biome-ignore lint/suspicious/noExplicitAny: tables of every record type live side by side.
const STORED_OTHERWISE: Record<string, TeamScopedTable<any>> = {
  eventTypes: eventTypesTable,
  'cars.photos': mediaTable,
  'marketing.assets': marketingAssetsTable,
  'marketing.socialEvents.rsvpOptions': rsvpOptionsTable,
  webhooks: webhooksTable,
};

/**
 * The table of every team resource the contract declares (a `get` of one record on the team API), by SDK
 * namespace: named after its records as its events name them (`getParkingZone` → `parking_zone`, so
 * `parking_zones`), its columns the record schema's. So a new resource needs no line here, only its
 * migration, which `test/migration-columns.test.ts` checks against these columns. The standard operations,
 * the parent checks of nested routes and the reference checks of every body (`customerId` → customers) all
 * look tables up here.
 */
// biome-ignore lint/suspicious/noExplicitAny: tables of every record type live side by side.
export const RESOURCE_TABLES: Record<string, TeamScopedTable<any>> = Object.fromEntries(
  (Object.values(apiEndpoints) as EndpointDefinition[])
    .filter((endpoint) => endpoint.surface === 'v1' && endpoint.sdk.method === 'get' && endpoint.resourceName)
    .map((endpoint) => {
      const namespace = endpoint.sdk.namespace.join('.');
      const stored = STORED_OTHERWISE[namespace];
      if (stored) return [namespace, stored];
      const record = (endpoint.response.schema as z.ZodObject<{ data: z.ZodObject }>).shape.data;
      const table = standardResources().get(namespace)?.tableName ?? resourceTableName({ get: endpoint });
      return [namespace, TeamScopedTable.of(table, record)];
    }),
);

/** The resources whose changes are the team's events: every one but webhook endpoints, which are settings. */
export const RECORDED_NAMESPACES: readonly string[] = Object.keys(RESOURCE_TABLES).filter(
  (namespace) => namespace !== 'webhooks',
);

/**
 * The table of a resource by SDK namespace (`parking.zones`), typed as its record: what a repository that
 * needs a resource's table by name uses, instead of naming the table and its schema a second time.
 */
export function resourceTable<R extends { id: string }>(namespace: string): TeamScopedTable<R> {
  const table = RESOURCE_TABLES[namespace];
  if (!table) throw new Error(`The contract declares no team resource "${namespace}" with a table`);
  return table as TeamScopedTable<R>;
}
