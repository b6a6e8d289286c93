import type { V1Car, V1Contact, V1Customer, V1Location } from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

export const carsTable = resourceTable<V1Car>('cars');

export const customersTable = resourceTable<V1Customer>('customers');

export const contactsTable = resourceTable<V1Contact>('contacts');

export const locationsTable = resourceTable<V1Location>('locations');

export { type EventTypeRow, eventTypesTable, toEventType } from './stored-tables.js';
