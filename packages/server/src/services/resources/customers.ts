import type { EndpointBody, updateCustomer, V1Customer } from '@vsf/contract';
import type { Changes } from '../../repositories/team-scoped-table.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

/** Customers are soft-deleted: a delete sets `deletedAt`, an update can restore them. */
export class Customers extends TeamResource<V1Customer> {
  constructor(deps: ServiceDeps) {
    super(deps, 'customers', {
      defaults: { isActive: true },
      filters: {
        // An incremental sync (`updatedAfter`) that speaks only the spec must see deletions, so it gets the
        // soft-deleted customers unless it asks otherwise; a plain list hides them unless asked.
        includeDeleted: (q, value, column, request) => {
          const include = value ?? request.updatedAfter !== undefined;
          if (!include) q.whereNull(column('deletedAt'));
        },
        email: (q, value, column) => {
          if (value) q.whereRaw(`lower(${column('email')}) = lower(?)`, [value as string]);
        },
      },
      // `restore: true` or `deletedAt: null` restores; a `deletedAt` timestamp soft-deletes as of then.
      write: (body) => {
        const { restore, deletedAt, ...fields } = body as EndpointBody<typeof updateCustomer>;
        const changes: Changes<V1Customer> = { ...fields };
        if (restore === true || deletedAt === null) changes.deletedAt = null;
        else if (typeof deletedAt === 'string') changes.deletedAt = new Date(deletedAt).toISOString();
        return changes;
      },
    });
  }

  /** Soft delete; deleting again keeps the first `deletedAt` and does not touch the record. */
  override async delete(teamId: string, customerId: string): Promise<{ id: string; deleted: true }> {
    const customer = await this.get(teamId, customerId);
    if (!customer.deletedAt) {
      const now = this.deps.now();
      await this.table.update(this.deps.db, teamId, customerId, { deletedAt: now.toISOString() }, now);
    }
    return { id: customerId, deleted: true };
  }
}
