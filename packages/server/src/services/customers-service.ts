import { randomUUID } from 'node:crypto';
import type {
  createCustomer,
  EndpointBody,
  EndpointQuery,
  listCustomers,
  updateCustomer,
  V1Customer,
} from '@vsf/contract';
import { notFound } from '../errors/api-http-error.js';
import { customersTable, locationsTable } from '../repositories/tables.js';
import type { Changes, ListResult } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

export class CustomersService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listCustomers>): Promise<ListResult<V1Customer>> {
    return customersTable.list(this.deps.db, teamId, query, (q) => {
      if (!query.includeDeleted) q.whereNull('customers.deleted_at');
      if (query.locationId) q.where('customers.location_id', query.locationId);
      if (query.email) q.whereRaw('lower(customers.email) = lower(?)', [query.email]);
    });
  }

  async get(teamId: string, customerId: string): Promise<V1Customer> {
    const customer = await customersTable.findById(this.deps.db, teamId, customerId);
    if (!customer) throw notFound('Customer');
    return customer;
  }

  async create(teamId: string, body: EndpointBody<typeof createCustomer>): Promise<V1Customer> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    return customersTable.insert(this.deps.db, teamId, { isActive: true, ...body, id: randomUUID() }, this.deps.now());
  }

  /** `restore: true` or `deletedAt: null` restores; a `deletedAt` timestamp soft-deletes as of then. */
  async update(teamId: string, customerId: string, body: EndpointBody<typeof updateCustomer>): Promise<V1Customer> {
    if (!(await customersTable.exists(this.deps.db, teamId, customerId))) throw notFound('Customer');
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    const { restore, deletedAt, ...fields } = body;
    const changes: Changes<V1Customer> = { ...fields };
    if (restore === true || deletedAt === null) changes.deletedAt = null;
    else if (typeof deletedAt === 'string') changes.deletedAt = new Date(deletedAt).toISOString();
    const customer = await customersTable.update(this.deps.db, teamId, customerId, changes, this.deps.now());
    if (!customer) throw notFound('Customer');
    return customer;
  }

  /** Soft delete; deleting again keeps the first `deletedAt` and does not touch the record. */
  async softDelete(teamId: string, customerId: string): Promise<{ id: string; deleted: true }> {
    const customer = await customersTable.findById(this.deps.db, teamId, customerId);
    if (!customer) throw notFound('Customer');
    if (!customer.deletedAt) {
      const now = this.deps.now();
      await customersTable.update(this.deps.db, teamId, customerId, { deletedAt: now.toISOString() }, now);
    }
    return { id: customerId, deleted: true };
  }
}
