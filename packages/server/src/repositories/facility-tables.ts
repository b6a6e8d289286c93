import {
  V1Appointment,
  V1AppointmentType,
  V1CarEvent,
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingZone,
} from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const parkingZonesTable = TeamScopedTable.of<V1ParkingZone>('parking_zones', V1ParkingZone);

export const parkingSpotsTable = TeamScopedTable.of<V1ParkingSpot>('parking_spots', V1ParkingSpot);

export const parkingAssignmentsTable = TeamScopedTable.of<V1ParkingAssignment>(
  'parking_assignments',
  V1ParkingAssignment,
);

export const carEventsTable = TeamScopedTable.of<V1CarEvent>('car_events', V1CarEvent);

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
export const mediaTable = TeamScopedTable.ofRow<MediaRow>(
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
  { sizeBytes: 'integer' },
);

export const appointmentTypesTable = TeamScopedTable.of<V1AppointmentType>('appointment_types', V1AppointmentType);

export const appointmentsTable = TeamScopedTable.of<V1Appointment>('appointments', V1Appointment);
