import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { Int4, LineText, NameText } from './bounds.js';

/** A location's fields, each once: the record, both bodies and the list's filter follow. */
export const locationTable = fieldTable('V1Location', {
  name: field(NameText.min(1), { example: 'North Warehouse' }),
  address: field(LineText, { nullable: true, doc: 'Street address' }),
  city: field(NameText, { nullable: true }),
  state: field(NameText, { nullable: true, doc: 'State, province or region' }),
  zip: field(NameText, { nullable: true, doc: 'Postal code' }),
  phone: field(NameText, { nullable: true }),
  timezone: field(NameText, { nullable: true, doc: 'IANA time zone', example: 'America/Chicago' }),
  isActive: field(z.boolean(), {
    default: true,
    filter: 'Only active (or inactive) locations',
    doc: '`false` retires the location while keeping what refers to it',
  }),
  sortOrder: field(Int4, {
    optional: true,
    record: Int4.nullable(),
    doc: 'Position in lists people see, lowest first',
  }),
});

export const V1Location = locationTable.record;
export type V1Location = z.infer<typeof V1Location>;
export const V1LocationCreate = locationTable.createBody;
export type V1LocationCreate = z.input<typeof V1LocationCreate>;
export const V1LocationUpdate = locationTable.updateBody;
export type V1LocationUpdate = z.input<typeof V1LocationUpdate>;
