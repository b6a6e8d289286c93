import { z } from '../zod.js';
import { EmailText, LineText, NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { allOptional, teamRecord } from './team-record.js';

export const V1Customer = teamRecord('V1Customer', {
  teamId: z.string().nullable(),
  userId: z.string().nullable(),
  locationId: Uuid.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  isActive: z.boolean(),
  deletedAt: Timestamp.nullable().openapi({ description: 'Set when the customer is soft-deleted' }),
});
export type V1Customer = z.infer<typeof V1Customer>;

const customerFields = {
  firstName: NameText.min(1).openapi({ example: 'Ada' }),
  lastName: NameText.min(1).openapi({ example: 'Lovelace' }),
  companyName: NameText.nullable().optional(),
  email: EmailText.nullable().optional().openapi({ example: 'ada@example.com' }),
  phone: NameText.nullable().optional(),
  address: LineText.nullable().optional(),
  city: NameText.nullable().optional(),
  state: NameText.nullable().optional(),
  zip: NameText.nullable().optional(),
  country: NameText.nullable().optional(),
  locationId: Uuid.nullable().optional(),
  isActive: z.boolean().optional(),
};

export const V1CustomerCreate = z.strictObject(customerFields).openapi('V1CustomerCreate');
export type V1CustomerCreate = z.input<typeof V1CustomerCreate>;

export const V1CustomerUpdate = z
  .strictObject({
    ...allOptional(customerFields),
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
