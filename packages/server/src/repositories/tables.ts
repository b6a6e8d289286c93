import type { V1Car, V1Contact, V1Customer, V1EventType, V1Location } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const carsTable = new TeamScopedTable<V1Car>(
  'cars',
  [
    'id',
    'teamId',
    'customerId',
    'locationId',
    'vin',
    'stockNumber',
    'year',
    'make',
    'model',
    'trim',
    'color',
    'licensePlate',
    'licensePlateState',
    'mileage',
    'mileageUnits',
    'parkingSpot',
    'parkingSpotId',
    'parkingZoneId',
    'vendorId',
    'isForSale',
    'declaredValueCents',
    'createdAt',
    'updatedAt',
  ],
  { declaredValueCents: 'number', mileage: 'number', year: 'number' },
);

export const customersTable = new TeamScopedTable<V1Customer>('customers', [
  'id',
  'teamId',
  'userId',
  'locationId',
  'firstName',
  'lastName',
  'companyName',
  'email',
  'phone',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'isActive',
  'deletedAt',
  'createdAt',
  'updatedAt',
]);

export const contactsTable = new TeamScopedTable<V1Contact>(
  'contacts',
  [
    'id',
    'customerId',
    'firstName',
    'lastName',
    'email',
    'phone',
    'role',
    'roleDescription',
    'isPrimary',
    'canAccessPortal',
    'communicationPreferences',
    'createdAt',
    'updatedAt',
  ],
  { communicationPreferences: 'json' },
);

export const locationsTable = new TeamScopedTable<V1Location>('locations', [
  'id',
  'teamId',
  'name',
  'address',
  'city',
  'state',
  'zip',
  'phone',
  'timezone',
  'isActive',
  'sortOrder',
  'createdAt',
  'updatedAt',
]);

/** Event types keep `config.requiresParkingSpot` in its own column. */
export interface EventTypeRow extends Omit<V1EventType, 'config'> {
  requiresParkingSpot: boolean;
}
export const eventTypesTable = new TeamScopedTable<EventTypeRow>('event_types', [
  'id',
  'teamId',
  'value',
  'name',
  'scope',
  'requiresParkingSpot',
  'isDefault',
  'createdAt',
  'updatedAt',
]);

export function toEventType({ requiresParkingSpot, ...rest }: EventTypeRow): V1EventType {
  return { ...rest, config: { requiresParkingSpot } };
}
