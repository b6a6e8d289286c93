import type { AudienceFilter, V1Customer } from '@vsf/contract';
import type { Knex } from 'knex';
import { customersTable } from '../repositories/tables.js';
import type { Executor } from '../repositories/team-scoped-table.js';

/** `exists` a contact of the customer row in scope who opted in to `preference`. */
export function prefers(db: Executor, preference: string) {
  return db.raw(
    `exists (select 1 from contacts c where c.team_id = customers.team_id and c.customer_id = customers.id and (c.communication_preferences->>?) = 'true')`,
    [preference],
  );
}

/** Narrows a query over the team's customers to those an audience filter matches; soft-deleted ones never do. */
export function matchAudience(db: Executor, query: Knex.QueryBuilder, filter: AudienceFilter): void {
  query.whereNull('customers.deleted_at');
  if (filter.locationId) query.where('customers.location_id', filter.locationId);
  if (filter.isActive !== undefined) query.where('customers.is_active', filter.isActive);
  if (filter.customerIds) query.whereIn('customers.id', filter.customerIds);
  if (filter.contactPreference) query.whereRaw('?', [prefers(db, filter.contactPreference)]);
  if (filter.hasCarsForSale !== undefined) {
    const forSale = db.raw(
      'exists (select 1 from cars where cars.team_id = customers.team_id and cars.customer_id = customers.id and cars.is_for_sale)',
    );
    query.whereRaw(filter.hasCarsForSale ? '?' : 'not ?', [forSale]);
  }
}

/** The team's customers an audience filter matches now, with whether each allows marketing. */
export async function resolveAudience(
  db: Executor,
  teamId: string,
  filter: AudienceFilter,
): Promise<(V1Customer & { allowsMarketing: boolean })[]> {
  const query = customersTable
    .scoped(db, teamId)
    .select('customers.*', db.raw('? as allows_marketing', [prefers(db, 'marketing')]))
    .orderBy('customers.id');
  matchAudience(db, query, filter);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({ ...customersTable.toRecord(row), allowsMarketing: row.allows_marketing === true }));
}
