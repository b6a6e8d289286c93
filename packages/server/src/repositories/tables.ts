import { V1Car, V1Contact, V1Customer, type V1EventType, V1Location } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const carsTable = TeamScopedTable.of<V1Car>('cars', V1Car);

export const customersTable = TeamScopedTable.of<V1Customer>('customers', V1Customer);

export const contactsTable = TeamScopedTable.of<V1Contact>('contacts', V1Contact);

export const locationsTable = TeamScopedTable.of<V1Location>('locations', V1Location);

/** Event types keep `config.requiresParkingSpot` in its own column. */
export interface EventTypeRow extends Omit<V1EventType, 'config'> {
  requiresParkingSpot: boolean;
}
export const eventTypesTable = TeamScopedTable.ofRow<EventTypeRow>(
  'event_types',
  ['id', 'teamId', 'value', 'name', 'scope', 'requiresParkingSpot', 'isDefault', 'createdAt', 'updatedAt'],
  { requiresParkingSpot: 'boolean', isDefault: 'boolean' },
);

export function toEventType({ requiresParkingSpot, ...rest }: EventTypeRow): V1EventType {
  return { ...rest, config: { requiresParkingSpot } };
}
