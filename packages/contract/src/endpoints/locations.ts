import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { V1Location, V1LocationCreate, V1LocationUpdate } from '../schemas/location.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

export const listLocations = defineEndpoint({
  operationId: 'listLocations',
  surface: 'v1',
  method: 'get',
  path: '/locations',
  summary: 'List locations',
  scopes: { all: readScopes('locations') },
  sdk: { namespace: ['locations'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    isActive: QueryBoolean.optional().openapi({ description: 'Only active (or inactive) locations' }),
  }),
  response: { status: 200, description: 'A page of locations', schema: listResponse(V1Location) },
  paginated: true,
});

export const getLocation = defineEndpoint({
  operationId: 'getLocation',
  surface: 'v1',
  method: 'get',
  path: '/locations/{locationId}',
  summary: 'Get a location',
  scopes: { all: readScopes('locations') },
  sdk: { namespace: ['locations'], method: 'get' },
  params: idParams('locationId'),
  response: { status: 200, description: 'The location', schema: dataResponse(V1Location) },
  resourceName: 'Location',
  errors: [404],
});

export const createLocation = defineEndpoint({
  operationId: 'createLocation',
  surface: 'v1',
  method: 'post',
  path: '/locations',
  summary: 'Create a location',
  scopes: { all: writeScopes('locations') },
  sdk: { namespace: ['locations'], method: 'create' },
  body: V1LocationCreate,
  response: { status: 201, description: 'The created location', schema: dataResponse(V1Location) },
});

export const updateLocation = defineEndpoint({
  operationId: 'updateLocation',
  surface: 'v1',
  method: 'patch',
  path: '/locations/{locationId}',
  summary: 'Update a location',
  scopes: { all: writeScopes('locations') },
  sdk: { namespace: ['locations'], method: 'update' },
  params: idParams('locationId'),
  body: V1LocationUpdate,
  response: { status: 200, description: 'The updated location', schema: dataResponse(V1Location) },
  resourceName: 'Location',
  errors: [404],
});

export const deleteLocation = defineEndpoint({
  operationId: 'deleteLocation',
  surface: 'v1',
  method: 'delete',
  path: '/locations/{locationId}',
  summary: 'Delete a location',
  description:
    'Only a location nothing refers to can be deleted (409 otherwise); to retire a location in use, set `isActive: false`.',
  scopes: { all: writeScopes('locations') },
  sdk: { namespace: ['locations'], method: 'delete' },
  params: idParams('locationId'),
  response: { status: 200, description: 'The location is deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Location',
  errors: [404, 409],
});
