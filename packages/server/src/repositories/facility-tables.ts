import type {
  V1Appointment,
  V1AppointmentType,
  V1CarEvent,
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingZone,
} from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

export const parkingZonesTable = resourceTable<V1ParkingZone>('parking.zones');

export const parkingSpotsTable = resourceTable<V1ParkingSpot>('parking.spots');

export const parkingAssignmentsTable = resourceTable<V1ParkingAssignment>('parking.assignments');

export const carEventsTable = resourceTable<V1CarEvent>('cars.events');

export const appointmentTypesTable = resourceTable<V1AppointmentType>('appointmentTypes');

export const appointmentsTable = resourceTable<V1Appointment>('appointments');

export { type MediaRow, mediaTable } from './stored-tables.js';
