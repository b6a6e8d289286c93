import type {
  V1Appointment,
  V1AppointmentType,
  V1CarEvent,
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingZone,
} from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const parkingZonesTable = new TeamScopedTable<V1ParkingZone>(
  'parking_zones',
  ['id', 'teamId', 'locationId', 'name', 'description', 'capacity', 'isActive', 'createdAt', 'updatedAt'],
  { capacity: 'number' },
);

export const parkingSpotsTable = new TeamScopedTable<V1ParkingSpot>('parking_spots', [
  'id',
  'teamId',
  'parkingZoneId',
  'name',
  'isActive',
  'carId',
  'createdAt',
  'updatedAt',
]);

export const parkingAssignmentsTable = new TeamScopedTable<V1ParkingAssignment>('parking_assignments', [
  'id',
  'teamId',
  'carId',
  'parkingSpotId',
  'parkingZoneId',
  'carEventId',
  'startedAt',
  'endedAt',
  'createdAt',
  'updatedAt',
]);

export const carEventsTable = new TeamScopedTable<V1CarEvent>('car_events', [
  'id',
  'teamId',
  'carId',
  'activityType',
  'eventTypeId',
  'parkingSpotId',
  'parkingZoneId',
  'notes',
  'occurredAt',
  'sessionId',
  'createdAt',
  'updatedAt',
]);

/** Stored bytes' metadata; `url` is derived, the bytes live in the blob store. */
export interface MediaRow {
  id: string;
  teamId: string;
  kind: 'car_photo' | 'asset';
  carId: string | null;
  sessionId: string | null;
  filename: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
  createdAt: string;
  updatedAt: string;
}
export const mediaTable = new TeamScopedTable<MediaRow>(
  'media',
  [
    'id',
    'teamId',
    'kind',
    'carId',
    'sessionId',
    'filename',
    'contentType',
    'sizeBytes',
    'storageKey',
    'createdAt',
    'updatedAt',
  ],
  { sizeBytes: 'number' },
);

export const appointmentTypesTable = new TeamScopedTable<V1AppointmentType>(
  'appointment_types',
  ['id', 'teamId', 'name', 'eventTypeId', 'durationMinutes', 'isActive', 'createdAt', 'updatedAt'],
  { durationMinutes: 'number' },
);

export const appointmentsTable = new TeamScopedTable<V1Appointment>('appointments', [
  'id',
  'teamId',
  'eventTypeId',
  'eventType',
  'appointmentTypeId',
  'carId',
  'customerId',
  'startAt',
  'endAt',
  'status',
  'notes',
  'sessionId',
  'cancelledAt',
  'createdAt',
  'updatedAt',
]);
