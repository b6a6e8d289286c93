import { defineEndpoint } from '../endpoint.js';
import { LineText } from '../schemas/bounds.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { V1Customer, V1CustomerCreate, V1CustomerUpdate } from '../schemas/customer.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

export const listCustomers = defineEndpoint({
  operationId: 'listCustomers',
  surface: 'v1',
  method: 'get',
  path: '/customers',
  summary: 'List customers',
  description:
    'Most recently updated first. Soft-deleted customers are hidden unless `includeDeleted=true`; a sync passes it so deletions reach the mirror.',
  scopes: { all: readScopes('customers') },
  sdk: { namespace: ['customers'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    includeDeleted: QueryBoolean.optional().openapi({ description: 'Also return soft-deleted customers' }),
    locationId: z.uuid().optional(),
    email: LineText.min(1).optional().openapi({ description: 'Exact email, case-insensitive' }),
  }),
  response: { status: 200, description: 'A page of customers', schema: listResponse(V1Customer) },
  paginated: true,
});

export const getCustomer = defineEndpoint({
  operationId: 'getCustomer',
  surface: 'v1',
  method: 'get',
  path: '/customers/{customerId}',
  summary: 'Get a customer',
  description: 'Soft-deleted customers are returned too, with `deletedAt` set.',
  scopes: { all: readScopes('customers') },
  sdk: { namespace: ['customers'], method: 'get' },
  params: idParams('customerId'),
  response: { status: 200, description: 'The customer', schema: dataResponse(V1Customer) },
  resourceName: 'Customer',
  errors: [404],
});

export const createCustomer = defineEndpoint({
  operationId: 'createCustomer',
  surface: 'v1',
  method: 'post',
  path: '/customers',
  summary: 'Create a customer',
  scopes: { all: writeScopes('customers') },
  sdk: { namespace: ['customers'], method: 'create' },
  references: ['locationId'],
  body: V1CustomerCreate,
  response: { status: 201, description: 'The created customer', schema: dataResponse(V1Customer) },
});

export const updateCustomer = defineEndpoint({
  operationId: 'updateCustomer',
  surface: 'v1',
  method: 'patch',
  path: '/customers/{customerId}',
  summary: 'Update, restore or soft-delete a customer',
  description:
    '`restore: true` (or `deletedAt: null`) clears `deletedAt`; a `deletedAt` timestamp soft-deletes the customer as of that time.',
  scopes: { all: writeScopes('customers') },
  sdk: { namespace: ['customers'], method: 'update' },
  params: idParams('customerId'),
  references: ['locationId'],
  body: V1CustomerUpdate,
  response: { status: 200, description: 'The updated customer', schema: dataResponse(V1Customer) },
  resourceName: 'Customer',
  errors: [404],
});

export const deleteCustomer = defineEndpoint({
  operationId: 'deleteCustomer',
  surface: 'v1',
  method: 'delete',
  path: '/customers/{customerId}',
  summary: 'Soft-delete a customer',
  description:
    'Sets `deletedAt`; the record is kept and can be restored with `PATCH {restore: true}`. Deleting an already deleted customer keeps its original `deletedAt`.',
  scopes: { all: writeScopes('customers') },
  sdk: { namespace: ['customers'], method: 'delete' },
  params: idParams('customerId'),
  response: { status: 200, description: 'The customer is deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Customer',
  errors: [404],
});
