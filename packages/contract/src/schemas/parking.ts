import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { IndexedText, Int4, LongText, NameText } from './bounds.js';
import { Timestamp, Uuid } from './common.js';
import { teamRecord } from './team-record.js';

/** A parking zone's fields, each once: the record, both bodies, the filters and the references follow. */
export const parkingZoneTable = fieldTable('V1ParkingZone', {
  locationId: field(Uuid, {
    nullable: true,
    references: 'locations',
    filter: 'Only zones of this location',
    doc: 'The location the zone is in',
  }),
  name: field(NameText.min(1), { example: 'Hall A' }),
  description: field(LongText, { nullable: true }),
  capacity: field(Int4.min(0), { nullable: true, doc: 'Cars the zone holds; null when not counted' }),
  isActive: field(z.boolean(), { default: true, filter: 'Only active (or inactive) zones' }),
});

export const V1ParkingZone = parkingZoneTable.record;
export type V1ParkingZone = z.infer<typeof V1ParkingZone>;
export const V1ParkingZoneCreate = parkingZoneTable.createBody;
export const V1ParkingZoneUpdate = parkingZoneTable.updateBody;

/** A parking spot's fields, each once: the record, both bodies, the filters and the references follow. */
export const parkingSpotTable = fieldTable('V1ParkingSpot', {
  parkingZoneId: field(Uuid, {
    references: 'parking.zones',
    filter: 'Only spots of this zone',
    doc: 'The zone the spot is in',
  }),
  name: field(IndexedText.min(1), {
    filter: 'Exact spot label',
    doc: 'The label staff use, e.g. `A-12`',
    example: 'A-12',
  }),
  isActive: field(z.boolean(), { default: true }),
  carId: field(Uuid, { nullable: true, readOnly: true, doc: 'The car parked in the spot now, if any' }),
});

export const V1ParkingSpot = parkingSpotTable.record;
export type V1ParkingSpot = z.infer<typeof V1ParkingSpot>;
export const V1ParkingSpotCreate = parkingSpotTable.createBody;
export const V1ParkingSpotUpdate = parkingSpotTable.updateBody;

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
