import { defineGroup, defineResource } from '../define-resource.js';
import { QueryBoolean } from '../schemas/common.js';
import * as schemas from '../schemas/parking.js';
import { z } from '../zod.js';

const parking = defineGroup({ surface: 'v1', prefix: '', sdk: ['parking'], scope: 'parking' });

export const zones = defineResource(parking, {
  name: 'ParkingZone',
  path: '/parking-zones',
  sdk: 'zones',
  ...schemas.parkingZoneTable,
  delete: {
    summary: 'Delete an empty parking zone',
    description: 'Only a zone with no spots and no cars can be deleted (409 otherwise).',
    inUse: 'The zone still has spots, cars or history; set isActive to false instead',
  },
});

export const spots = defineResource(parking, {
  name: 'ParkingSpot',
  path: '/parking-spots',
  sdk: 'spots',
  ...schemas.parkingSpotTable,
  filters: {
    ...schemas.parkingSpotTable.filters,
    occupied: QueryBoolean.optional().openapi({ description: 'Only spots with (or without) a car in them' }),
  },
  create: { summary: 'Create a parking spot in a zone', errors: [409] },
  update: {
    description: 'A spot with a car in it cannot move to another zone (409): move the car first.',
    errors: [409],
  },
  delete: {
    summary: 'Delete an empty parking spot',
    description: 'A spot with a car in it cannot be deleted (409).',
    inUse: 'The spot has parking history; set isActive to false instead',
  },
});

export const assignments = defineResource(parking, {
  name: 'ParkingAssignment',
  path: '/parking-assignments',
  sdk: 'assignments',
  record: schemas.V1ParkingAssignment,
  filters: {
    carId: z.uuid().optional(),
    parkingSpotId: z.uuid().optional(),
    parkingZoneId: z.uuid().optional(),
    active: QueryBoolean.optional().openapi({ description: '`true`: only stays that have not ended' }),
  },
  operations: ['list', 'get'],
  list: {
    summary: 'List parking assignments (stays of cars in spots and zones)',
    description:
      'Written by car events and by a car’s `parkingSpotId`/`parkingZoneId` (`POST`/`PATCH /cars`): a drop-off or placement starts one, the next one or a pick-up ends it. A spot has at most one active stay, and stays of a car or a spot never overlap.',
  },
});
