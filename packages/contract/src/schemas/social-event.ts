import { EXAMPLE_UUID } from '../openapi/schema-example.js';
import { z } from '../zod.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { allOptional, teamRecord } from './team-record.js';

export const SocialEventStatus = z.enum(['scheduled', 'cancelled']).openapi('SocialEventStatus');

export const V1SocialEvent = teamRecord(
  'V1SocialEvent',
  {
    name: z.string(),
    description: z.string().nullable(),
    startsAt: Timestamp,
    endsAt: Timestamp.nullable(),
    locationId: Uuid.nullable().openapi({ description: 'One of the team’s locations, when held at the facility' }),
    venue: z.string().nullable().openapi({ description: 'Free-text place, for events held elsewhere' }),
    capacity: z.number().int().nullable().openapi({ description: 'Planned head count; informational' }),
    status: SocialEventStatus,
  },
  'A customer event the facility hosts (cars and coffee, a season opening), with RSVP options, invites and RSVPs',
);
export type V1SocialEvent = z.infer<typeof V1SocialEvent>;

const eventFields = {
  name: z.string().min(1).max(200),
  description: z.string().max(5000).nullable().optional(),
  startsAt: TimestampWithOffset,
  endsAt: TimestampWithOffset.nullable().optional().openapi({ description: 'After `startsAt` when set' }),
  locationId: Uuid.nullable().optional(),
  venue: z.string().max(500).nullable().optional(),
  capacity: z.number().int().min(1).max(1_000_000).nullable().optional(),
};

export const V1SocialEventCreate = z
  .strictObject(eventFields)
  .refine((b) => !b.endsAt || Date.parse(b.endsAt) > Date.parse(b.startsAt), {
    message: 'endsAt must be after startsAt',
    path: ['endsAt'],
  })
  .openapi('V1SocialEventCreate');
export type V1SocialEventCreate = z.input<typeof V1SocialEventCreate>;

export const V1SocialEventUpdate = z
  .strictObject({
    ...allOptional(eventFields),
    startsAt: TimestampWithOffset.optional(),
    status: SocialEventStatus.optional().openapi({ description: '`cancelled` keeps the event and its RSVPs' }),
  })
  .openapi('V1SocialEventUpdate');
export type V1SocialEventUpdate = z.input<typeof V1SocialEventUpdate>;

export const V1RsvpOption = teamRecord(
  'V1RsvpOption',
  {
    eventId: Uuid,
    label: z.string(),
    description: z.string().nullable(),
    attending: z.boolean().openapi({ description: 'Whether choosing it means coming (“Yes”, “Yes + guest”) or not' }),
    sortOrder: z.number().int(),
  },
  'One answer a guest can give, e.g. “Attending”, “Declined”',
);
export type V1RsvpOption = z.infer<typeof V1RsvpOption>;

const optionFields = {
  label: z.string().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  attending: z.boolean().optional().openapi({ description: 'Default true' }),
  sortOrder: z.number().int().min(0).max(10_000).optional().openapi({ description: 'Default 0' }),
};
export const V1RsvpOptionCreate = z.strictObject(optionFields).openapi('V1RsvpOptionCreate');
export type V1RsvpOptionCreate = z.input<typeof V1RsvpOptionCreate>;
export const V1RsvpOptionUpdate = z.strictObject(allOptional(optionFields)).openapi('V1RsvpOptionUpdate');
export type V1RsvpOptionUpdate = z.input<typeof V1RsvpOptionUpdate>;

export const V1SocialEventInvite = teamRecord(
  'V1SocialEventInvite',
  {
    eventId: Uuid,
    customerId: Uuid.openapi({ description: 'The invited customer; for a contact, the contact’s customer' }),
    contactId: Uuid.nullable().openapi({ description: 'Set when a contact (not the customer) is invited' }),
    note: z.string().nullable(),
  },
  'A record that a customer or contact is invited. It sends nothing by itself.',
);
export type V1SocialEventInvite = z.infer<typeof V1SocialEventInvite>;

export const V1SocialEventInviteCreate = z
  .strictObject({
    customerId: Uuid.optional(),
    contactId: Uuid.optional(),
    note: z.string().max(2000).nullable().optional(),
  })
  .refine((b) => (b.customerId === undefined) !== (b.contactId === undefined), {
    message: 'Send exactly one of customerId or contactId',
    path: ['customerId'],
  })
  // An invite names its guest, so this example names a record: put one of your customers' ids in.
  .openapi('V1SocialEventInviteCreate', { example: { customerId: EXAMPLE_UUID, note: 'Bring the Mustang' } });
export type V1SocialEventInviteCreate = z.input<typeof V1SocialEventInviteCreate>;

export const V1SocialEventRsvp = teamRecord(
  'V1SocialEventRsvp',
  {
    eventId: Uuid,
    rsvpOptionId: Uuid,
    inviteId: Uuid.nullable(),
    customerId: Uuid.nullable(),
    contactId: Uuid.nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    guestCount: z.number().int().openapi({ description: 'People this answer covers, the respondent included' }),
    note: z.string().nullable(),
    respondedAt: Timestamp,
  },
  'A guest’s answer: one of the event’s RSVP options. At most one RSVP per invite.',
);
export type V1SocialEventRsvp = z.infer<typeof V1SocialEventRsvp>;

export const V1SocialEventRsvpCreate = z
  .strictObject({
    rsvpOptionId: Uuid,
    inviteId: Uuid.optional().openapi({ description: 'The invite answered; its customer and contact are copied' }),
    customerId: Uuid.optional(),
    contactId: Uuid.optional(),
    name: z.string().min(1).max(200).optional().openapi({ description: 'For a guest who is not a customer' }),
    email: z.email().max(320).optional(),
    guestCount: z.number().int().min(1).max(100).optional().openapi({ description: 'Default 1' }),
    note: z.string().max(2000).nullable().optional(),
  })
  .refine((b) => [b.inviteId, b.customerId, b.contactId, b.name, b.email].some((v) => v !== undefined), {
    message: 'Say who answers: inviteId, customerId, contactId, name or email',
    path: ['inviteId'],
  })
  .refine((b) => b.inviteId === undefined || (b.customerId === undefined && b.contactId === undefined), {
    message: 'An invite already names its guest; send inviteId without customerId or contactId',
    path: ['inviteId'],
  })
  .openapi('V1SocialEventRsvpCreate');
export type V1SocialEventRsvpCreate = z.input<typeof V1SocialEventRsvpCreate>;

export const V1SocialEventRsvpUpdate = z
  .strictObject({
    rsvpOptionId: Uuid.optional().openapi({ description: 'A changed answer; `respondedAt` moves to now' }),
    name: z.string().min(1).max(200).nullable().optional(),
    email: z.email().max(320).nullable().optional(),
    guestCount: z.number().int().min(1).max(100).optional(),
    note: z.string().max(2000).nullable().optional(),
  })
  .openapi('V1SocialEventRsvpUpdate');
export type V1SocialEventRsvpUpdate = z.input<typeof V1SocialEventRsvpUpdate>;
