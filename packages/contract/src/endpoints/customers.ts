import { defineResource } from '../define-resource.js';
import { LineText } from '../schemas/bounds.js';
import { QueryBoolean } from '../schemas/common.js';
import { customerTable, V1CustomerUpdate } from '../schemas/customer.js';
import { v1 } from './groups.js';

export const customers = defineResource(v1, {
  name: 'Customer',
  path: '/customers',
  scope: 'customers',
  ...customerTable,
  updateBody: V1CustomerUpdate,
  filters: {
    ...customerTable.filters,
    includeDeleted: QueryBoolean.optional().openapi({
      description:
        'Also return soft-deleted customers. Defaults to `true` when `updatedAfter` is sent (an incremental sync sees deletions), `false` otherwise',
    }),
    email: LineText.min(1).optional().openapi({ description: 'Exact email, case-insensitive' }),
  },
  list: {
    description:
      'Most recently updated first. Soft-deleted customers are hidden unless `includeDeleted=true`, or unless `updatedAfter` is sent: an incremental sync then gets them with `deletedAt` set, so deletions reach its mirror (`includeDeleted=false` hides them again).',
  },
  get: { description: 'Soft-deleted customers are returned too, with `deletedAt` set.' },
  create: { response: 'The created customer' },
  update: {
    summary: 'Update, restore or soft-delete a customer',
    description:
      '`restore: true` (or `deletedAt: null`) clears `deletedAt`; a `deletedAt` timestamp soft-deletes the customer as of that time.',
    response: 'The updated customer',
  },
  delete: {
    summary: 'Soft-delete a customer',
    description:
      'Sets `deletedAt`; the record is kept and can be restored with `PATCH {restore: true}`. Deleting an already deleted customer keeps its original `deletedAt`.',
    response: 'The customer is deleted',
  },
});
