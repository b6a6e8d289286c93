import { defineEndpoint } from '../endpoint.js';
import { IndexedText } from '../schemas/bounds.js';
import { V1Car, V1CarCreate, V1CarUpdate } from '../schemas/car.js';
import { dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { carPlacementFieldScopes } from './parking-field-scopes.js';
import { idParams } from './shared.js';

const PLACEMENT =
  '`parkingSpotId` and `parkingZoneId` place the car as a drop-off does, in one transaction: the spot or zone must be the team’s own (400 naming the field), the spot free (409), and the car’s open parking stay ends and a new one starts. `parkingSpotId` alone puts the car in the spot’s zone; with both, the spot must be in that zone. `null` (either field, without an id in the other) takes the car out of parking and frees its spot. A placement equal to the car’s current one changes nothing.';
const carReferences = ['customerId', 'locationId', 'parkingSpotId', 'parkingZoneId'] as const;

export const listCars = defineEndpoint({
  operationId: 'listCars',
  surface: 'v1',
  method: 'get',
  path: '/cars',
  summary: 'List cars',
  description: 'Most recently updated first (`updatedAt desc, id desc`).',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    customerId: z.uuid().optional().openapi({ description: 'Only cars of this customer' }),
    locationId: z.uuid().optional().openapi({ description: 'Only cars at this location' }),
    vin: IndexedText.min(1).optional().openapi({ description: 'Exact VIN' }),
    stockNumber: IndexedText.min(1).optional().openapi({ description: 'Exact stock number' }),
  }),
  response: { status: 200, description: 'A page of cars', schema: listResponse(V1Car) },
  paginated: true,
});

export const getCar = defineEndpoint({
  operationId: 'getCar',
  surface: 'v1',
  method: 'get',
  path: '/cars/{carId}',
  summary: 'Get a car',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars'], method: 'get' },
  params: idParams('carId'),
  response: { status: 200, description: 'The car', schema: dataResponse(V1Car) },
  resourceName: 'Car',
  errors: [404],
});

export const createCar = defineEndpoint({
  operationId: 'createCar',
  surface: 'v1',
  method: 'post',
  path: '/cars',
  summary: 'Create a car',
  description: PLACEMENT,
  scopes: { all: writeScopes('cars') },
  fieldScopes: carPlacementFieldScopes,
  references: carReferences,
  sdk: { namespace: ['cars'], method: 'create' },
  body: V1CarCreate,
  response: { status: 201, description: 'The created car', schema: dataResponse(V1Car) },
  errors: [409],
});

export const updateCar = defineEndpoint({
  operationId: 'updateCar',
  surface: 'v1',
  method: 'patch',
  path: '/cars/{carId}',
  summary: 'Update a car',
  description: `Only the fields sent change; \`null\` clears a nullable field.\n\n${PLACEMENT}`,
  scopes: { all: writeScopes('cars') },
  fieldScopes: carPlacementFieldScopes,
  references: carReferences,
  sdk: { namespace: ['cars'], method: 'update' },
  params: idParams('carId'),
  body: V1CarUpdate,
  response: { status: 200, description: 'The updated car', schema: dataResponse(V1Car) },
  resourceName: 'Car',
  errors: [404, 409],
});
