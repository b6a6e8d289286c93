import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { EmailText, LineText, NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';

/** A customer's fields, each once: the record, both bodies and the references follow. */
export const customerTable = fieldTable('V1Customer', {
  teamId: field(z.string(), { nullable: true, readOnly: true }),
  userId: field(z.string(), {
    nullable: true,
    readOnly: true,
    doc: 'The customer’s user in the facility’s own system',
  }),
  locationId: field(Uuid, {
    nullable: true,
    references: 'locations',
    filter: 'Only customers of this location',
    doc: 'The location the customer belongs to',
  }),
  firstName: field(NameText.min(1), { example: 'Ada' }),
  lastName: field(NameText.min(1), { example: 'Lovelace' }),
  companyName: field(NameText, { nullable: true }),
  email: field(EmailText, { nullable: true, example: 'ada@example.com' }),
  phone: field(NameText, { nullable: true }),
  address: field(LineText, { nullable: true, doc: 'Street address' }),
  city: field(NameText, { nullable: true }),
  state: field(NameText, { nullable: true, doc: 'State, province or region' }),
  zip: field(NameText, { nullable: true, doc: 'Postal code' }),
  country: field(NameText, { nullable: true }),
  isActive: field(z.boolean(), { default: true }),
  deletedAt: field(Timestamp, { nullable: true, readOnly: true, doc: 'Set when the customer is soft-deleted' }),
});

export const V1Customer = customerTable.record;
export type V1Customer = z.infer<typeof V1Customer>;
export const V1CustomerCreate = customerTable.createBody;
export type V1CustomerCreate = z.input<typeof V1CustomerCreate>;

export const V1CustomerUpdate = z
  .strictObject({
    ...customerTable.updateShape,
    restore: z.boolean().optional().openapi({
      description: '`true` restores a soft-deleted customer (clears `deletedAt`); `false` changes nothing',
    }),
    deletedAt: TimestampWithOffset.nullable().optional().openapi({
      description: '`null` restores a soft-deleted customer; a timestamp soft-deletes it as of that time',
    }),
  })
  .refine((b) => !(b.restore === true && typeof b.deletedAt === 'string'), {
    message: '`restore: true` cannot be combined with a `deletedAt` timestamp',
    path: ['restore'],
  })
  // An everyday change: `restore` and a `deletedAt` timestamp together are refused.
  .openapi('V1CustomerUpdate', {
    example: { companyName: 'Lovelace Motors', phone: '+15555550123', city: 'Chicago', isActive: true },
  });
export type V1CustomerUpdate = z.input<typeof V1CustomerUpdate>;
