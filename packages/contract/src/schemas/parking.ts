import { z } from '../zod.js';
import { IndexedText, Int4, LongText, NameText } from './bounds.js';
import { Timestamp, Uuid } from './common.js';
import { allOptional, teamRecord } from './team-record.js';

export const V1ParkingZone = teamRecord('V1ParkingZone', {
  locationId: Uuid.nullable(),
  name: z.string(),
  description: z.string().nullable(),
  capacity: z.number().int().nullable().openapi({ description: 'Cars the zone holds; null when not counted' }),
  isActive: z.boolean(),
});
export type V1ParkingZone = z.infer<typeof V1ParkingZone>;

const zoneFields = {
  name: NameText.min(1).openapi({ example: 'Hall A' }),
  locationId: Uuid.nullable().optional(),
  description: LongText.nullable().optional(),
  capacity: Int4.min(0).nullable().optional(),
  isActive: z.boolean().optional(),
};
export const V1ParkingZoneCreate = z.strictObject(zoneFields).openapi('V1ParkingZoneCreate');
export const V1ParkingZoneUpdate = z.strictObject(allOptional(zoneFields)).openapi('V1ParkingZoneUpdate');

export const V1ParkingSpot = teamRecord('V1ParkingSpot', {
  parkingZoneId: Uuid,
  name: z.string().openapi({ description: 'The label staff use, e.g. `A-12`' }),
  isActive: z.boolean(),
  carId: Uuid.nullable().openapi({ description: 'The car parked in the spot now, if any' }),
});
export type V1ParkingSpot = z.infer<typeof V1ParkingSpot>;

export const V1ParkingSpotCreate = z
  .strictObject({
    name: IndexedText.min(1).openapi({ example: 'A-12' }),
    parkingZoneId: Uuid,
    isActive: z.boolean().optional(),
  })
  .openapi('V1ParkingSpotCreate');
export const V1ParkingSpotUpdate = z
  .strictObject({
    name: IndexedText.min(1).optional(),
    parkingZoneId: Uuid.optional(),
    isActive: z.boolean().optional(),
  })
  .openapi('V1ParkingSpotUpdate');

export const V1ParkingAssignment = teamRecord(
  'V1ParkingAssignment',
  {
    carId: Uuid,
    parkingSpotId: Uuid.nullable(),
    parkingZoneId: Uuid,
    carEventId: Uuid.nullable().openapi({ description: 'The car event that started it' }),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable().openapi({ description: 'Null while the car is still there' }),
  },
  'A stay of a car in a spot or zone; written by car events',
);
export type V1ParkingAssignment = z.infer<typeof V1ParkingAssignment>;
