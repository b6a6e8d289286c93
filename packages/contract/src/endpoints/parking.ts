import { defineEndpoint } from '../endpoint.js';
import { IndexedText } from '../schemas/bounds.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import {
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingSpotCreate,
  V1ParkingSpotUpdate,
  V1ParkingZone,
  V1ParkingZoneCreate,
  V1ParkingZoneUpdate,
} from '../schemas/parking.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('parking') };
const write = { all: writeScopes('parking') };

export const listParkingZones = defineEndpoint({
  operationId: 'listParkingZones',
  surface: 'v1',
  method: 'get',
  path: '/parking-zones',
  summary: 'List parking zones',
  scopes: read,
  sdk: { namespace: ['parking', 'zones'], method: 'list' },
  query: z.strictObject({ ...listQueryShape, locationId: z.uuid().optional(), isActive: QueryBoolean.optional() }),
  response: { status: 200, description: 'A page of zones', schema: listResponse(V1ParkingZone) },
  paginated: true,
});

export const getParkingZone = defineEndpoint({
  operationId: 'getParkingZone',
  surface: 'v1',
  method: 'get',
  path: '/parking-zones/{parkingZoneId}',
  summary: 'Get a parking zone',
  scopes: read,
  sdk: { namespace: ['parking', 'zones'], method: 'get' },
  params: idParams('parkingZoneId'),
  response: { status: 200, description: 'The zone', schema: dataResponse(V1ParkingZone) },
  resourceName: 'Parking zone',
  errors: [404],
});

export const createParkingZone = defineEndpoint({
  operationId: 'createParkingZone',
  surface: 'v1',
  method: 'post',
  path: '/parking-zones',
  summary: 'Create a parking zone',
  scopes: write,
  sdk: { namespace: ['parking', 'zones'], method: 'create' },
  references: ['locationId'],
  body: V1ParkingZoneCreate,
  response: { status: 201, description: 'The zone', schema: dataResponse(V1ParkingZone) },
});

export const updateParkingZone = defineEndpoint({
  operationId: 'updateParkingZone',
  surface: 'v1',
  method: 'patch',
  path: '/parking-zones/{parkingZoneId}',
  summary: 'Update a parking zone',
  scopes: write,
  sdk: { namespace: ['parking', 'zones'], method: 'update' },
  params: idParams('parkingZoneId'),
  references: ['locationId'],
  body: V1ParkingZoneUpdate,
  response: { status: 200, description: 'The zone', schema: dataResponse(V1ParkingZone) },
  resourceName: 'Parking zone',
  errors: [404],
});

export const deleteParkingZone = defineEndpoint({
  operationId: 'deleteParkingZone',
  surface: 'v1',
  method: 'delete',
  path: '/parking-zones/{parkingZoneId}',
  summary: 'Delete an empty parking zone',
  description: 'Only a zone with no spots and no cars can be deleted (409 otherwise).',
  scopes: write,
  sdk: { namespace: ['parking', 'zones'], method: 'delete' },
  params: idParams('parkingZoneId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Parking zone',
  errors: [404, 409],
});

export const listParkingSpots = defineEndpoint({
  operationId: 'listParkingSpots',
  surface: 'v1',
  method: 'get',
  path: '/parking-spots',
  summary: 'List parking spots',
  scopes: read,
  sdk: { namespace: ['parking', 'spots'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    parkingZoneId: z.uuid().optional(),
    name: IndexedText.min(1).optional().openapi({ description: 'Exact spot label' }),
    occupied: QueryBoolean.optional(),
  }),
  response: { status: 200, description: 'A page of spots', schema: listResponse(V1ParkingSpot) },
  paginated: true,
});

export const getParkingSpot = defineEndpoint({
  operationId: 'getParkingSpot',
  surface: 'v1',
  method: 'get',
  path: '/parking-spots/{parkingSpotId}',
  summary: 'Get a parking spot',
  scopes: read,
  sdk: { namespace: ['parking', 'spots'], method: 'get' },
  params: idParams('parkingSpotId'),
  response: { status: 200, description: 'The spot', schema: dataResponse(V1ParkingSpot) },
  resourceName: 'Parking spot',
  errors: [404],
});

export const createParkingSpot = defineEndpoint({
  operationId: 'createParkingSpot',
  surface: 'v1',
  method: 'post',
  path: '/parking-spots',
  summary: 'Create a parking spot in a zone',
  scopes: write,
  sdk: { namespace: ['parking', 'spots'], method: 'create' },
  references: ['parkingZoneId'],
  body: V1ParkingSpotCreate,
  response: { status: 201, description: 'The spot', schema: dataResponse(V1ParkingSpot) },
  errors: [409],
});

export const updateParkingSpot = defineEndpoint({
  operationId: 'updateParkingSpot',
  surface: 'v1',
  method: 'patch',
  path: '/parking-spots/{parkingSpotId}',
  summary: 'Update a parking spot',
  description: 'A spot with a car in it cannot move to another zone (409): move the car first.',
  scopes: write,
  references: ['parkingZoneId'],
  sdk: { namespace: ['parking', 'spots'], method: 'update' },
  params: idParams('parkingSpotId'),
  body: V1ParkingSpotUpdate,
  response: { status: 200, description: 'The spot', schema: dataResponse(V1ParkingSpot) },
  resourceName: 'Parking spot',
  errors: [404, 409],
});

export const deleteParkingSpot = defineEndpoint({
  operationId: 'deleteParkingSpot',
  surface: 'v1',
  method: 'delete',
  path: '/parking-spots/{parkingSpotId}',
  summary: 'Delete an empty parking spot',
  description: 'A spot with a car in it cannot be deleted (409).',
  scopes: write,
  sdk: { namespace: ['parking', 'spots'], method: 'delete' },
  params: idParams('parkingSpotId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Parking spot',
  errors: [404, 409],
});

export const listParkingAssignments = defineEndpoint({
  operationId: 'listParkingAssignments',
  surface: 'v1',
  method: 'get',
  path: '/parking-assignments',
  summary: 'List parking assignments (stays of cars in spots and zones)',
  description:
    'Written by car events and by a car’s `parkingSpotId`/`parkingZoneId` (`POST`/`PATCH /cars`): a drop-off or placement starts one, the next one or a pick-up ends it. A spot has at most one active stay, and stays of a car or a spot never overlap.',
  scopes: read,
  sdk: { namespace: ['parking', 'assignments'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    carId: z.uuid().optional(),
    parkingSpotId: z.uuid().optional(),
    parkingZoneId: z.uuid().optional(),
    active: QueryBoolean.optional().openapi({ description: '`true`: only stays that have not ended' }),
  }),
  response: { status: 200, description: 'A page of assignments', schema: listResponse(V1ParkingAssignment) },
  paginated: true,
});

export const getParkingAssignment = defineEndpoint({
  operationId: 'getParkingAssignment',
  surface: 'v1',
  method: 'get',
  path: '/parking-assignments/{parkingAssignmentId}',
  summary: 'Get a parking assignment',
  scopes: read,
  sdk: { namespace: ['parking', 'assignments'], method: 'get' },
  params: idParams('parkingAssignmentId'),
  response: { status: 200, description: 'The assignment', schema: dataResponse(V1ParkingAssignment) },
  resourceName: 'Parking assignment',
  errors: [404],
});
