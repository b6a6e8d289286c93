import { z } from '../zod.js';
import { EmailText, LineText, NameText } from './bounds.js';
import { Timestamp, Uuid } from './common.js';
import { allOptional } from './team-record.js';

export const ContactRole = z
  .enum([
    'primary',
    'spouse',
    'child',
    'son',
    'daughter',
    'family_member',
    'bookkeeper',
    'vehicle_handler',
    'family_office',
    'accountant',
    'assistant',
    'collection_manager',
    'other',
  ])
  .openapi('ContactRole');

export const CommunicationPreferences = z
  .strictObject({
    invoices: z.boolean(),
    estimates: z.boolean(),
    scheduling: z.boolean(),
    carUpdates: z.boolean(),
    contracts: z.boolean(),
    socialEvents: z.boolean(),
    marketing: z.boolean(),
  })
  .openapi('CommunicationPreferences', { description: 'All seven flags are required when the object is sent' });

export const V1Contact = z
  .object({
    id: Uuid,
    customerId: Uuid,
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    role: ContactRole,
    roleDescription: z.string().nullable(),
    isPrimary: z.boolean(),
    canAccessPortal: z.boolean(),
    // A union, not `.nullable()`: that would make the component itself nullable everywhere.
    communicationPreferences: z.union([CommunicationPreferences, z.null()]),
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('V1Contact');
export type V1Contact = z.infer<typeof V1Contact>;

const contactFields = {
  firstName: NameText.min(1),
  lastName: NameText.min(1),
  email: EmailText.nullable().optional(),
  phone: NameText.nullable().optional(),
  role: ContactRole.optional().openapi({ description: 'Defaults to `other`' }),
  roleDescription: LineText.nullable().optional(),
  isPrimary: z.boolean().optional(),
  canAccessPortal: z.boolean().optional(),
  communicationPreferences: z.union([CommunicationPreferences, z.null()]).optional(),
};

export const V1ContactCreate = z.strictObject({ customerId: Uuid, ...contactFields }).openapi('V1ContactCreate');
export type V1ContactCreate = z.input<typeof V1ContactCreate>;

export const V1ContactUpdate = z.strictObject(allOptional(contactFields)).openapi('V1ContactUpdate');
export type V1ContactUpdate = z.input<typeof V1ContactUpdate>;
