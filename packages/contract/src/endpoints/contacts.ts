import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import { V1Contact, V1ContactCreate, V1ContactUpdate } from '../schemas/contact.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

export const listContacts = defineEndpoint({
  operationId: 'listContacts',
  surface: 'v1',
  method: 'get',
  path: '/contacts',
  summary: 'List contacts',
  scopes: { all: readScopes('contacts') },
  sdk: { namespace: ['contacts'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    customerId: z.uuid().optional().openapi({ description: 'Only contacts of this customer' }),
  }),
  response: { status: 200, description: 'A page of contacts', schema: listResponse(V1Contact) },
  paginated: true,
});

export const getContact = defineEndpoint({
  operationId: 'getContact',
  surface: 'v1',
  method: 'get',
  path: '/contacts/{contactId}',
  summary: 'Get a contact',
  scopes: { all: readScopes('contacts') },
  sdk: { namespace: ['contacts'], method: 'get' },
  params: idParams('contactId'),
  response: { status: 200, description: 'The contact', schema: dataResponse(V1Contact) },
  resourceName: 'Contact',
  errors: [404],
});

export const createContact = defineEndpoint({
  operationId: 'createContact',
  surface: 'v1',
  method: 'post',
  path: '/contacts',
  summary: 'Create a contact',
  description: "The contact belongs to `customerId`, which must be one of the team's customers.",
  scopes: { all: writeScopes('contacts') },
  sdk: { namespace: ['contacts'], method: 'create' },
  references: ['customerId'],
  body: V1ContactCreate,
  response: { status: 201, description: 'The created contact', schema: dataResponse(V1Contact) },
});

export const updateContact = defineEndpoint({
  operationId: 'updateContact',
  surface: 'v1',
  method: 'patch',
  path: '/contacts/{contactId}',
  summary: 'Update a contact',
  scopes: { all: writeScopes('contacts') },
  sdk: { namespace: ['contacts'], method: 'update' },
  params: idParams('contactId'),
  body: V1ContactUpdate,
  response: { status: 200, description: 'The updated contact', schema: dataResponse(V1Contact) },
  resourceName: 'Contact',
  errors: [404],
});

export const deleteContact = defineEndpoint({
  operationId: 'deleteContact',
  surface: 'v1',
  method: 'delete',
  path: '/contacts/{contactId}',
  summary: 'Delete a contact',
  description: 'Removes the contact for good. A sync learns of it only through a full run with pruning.',
  scopes: { all: writeScopes('contacts') },
  sdk: { namespace: ['contacts'], method: 'delete' },
  params: idParams('contactId'),
  response: { status: 200, description: 'The contact is deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Contact',
  errors: [404],
});
