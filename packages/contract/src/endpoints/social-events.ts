import { defineResource } from '../define-resource.js';
import { TimestampWithOffset } from '../schemas/common.js';
import * as socialEvent from '../schemas/social-event.js';
import { z } from '../zod.js';
import { marketing } from './groups.js';

export const events = defineResource(marketing, {
  name: 'SocialEvent',
  path: '/social-events',
  id: 'eventId',
  scope: 'social-events',
  references: ['locationId'],
  record: socialEvent.V1SocialEvent,
  createBody: socialEvent.V1SocialEventCreate,
  updateBody: socialEvent.V1SocialEventUpdate,
  filters: {
    from: TimestampWithOffset.optional().openapi({
      description: 'Only events ending (or, without endsAt, starting) at or after this time',
    }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only events starting before this time' }),
    locationId: z.uuid().optional(),
    status: socialEvent.SocialEventStatus.optional(),
  },
  list: { response: 'A page of social events' },
  create: {
    description:
      '`locationId` places it at one of the team’s locations; `venue` describes a place elsewhere. `capacity` is the planned head count and is not enforced.',
  },
  update: {
    summary: 'Update or cancel a social event',
    description:
      '`status: cancelled` keeps the event with its invites and RSVPs (so guests can be told); DELETE removes them.',
  },
  delete: {
    summary: 'Delete a social event and its staff data',
    description:
      'Removes the event, its RSVPs, invites and RSVP options in one transaction: either all of them go or nothing changes. Customers and contacts are untouched.',
  },
});

export const rsvpOptions = defineResource(events, {
  name: 'RsvpOption',
  path: '/rsvp-options',
  label: 'RSVP option',
  record: socialEvent.V1RsvpOption,
  createBody: socialEvent.V1RsvpOptionCreate,
  updateBody: socialEvent.V1RsvpOptionUpdate,
  create: {
    summary: 'Add an RSVP option to an event',
    description:
      'The answers guests choose from, e.g. “Attending” (`attending: true`) and “Can’t make it” (`attending: false`).',
  },
  delete: {
    summary: 'Delete an RSVP option nobody chose',
    description: 'An option that RSVPs chose is kept (409): move those RSVPs to another option first.',
    inUse: 'RSVPs chose this option; move them to another option first',
  },
});

export const invites = defineResource(events, {
  name: 'SocialEventInvite',
  path: '/invites',
  id: 'inviteId',
  label: 'Invite',
  record: socialEvent.V1SocialEventInvite,
  createBody: socialEvent.V1SocialEventInviteCreate,
  filters: { customerId: z.uuid().optional() },
  operations: ['list', 'get', 'create', 'delete'],
  create: {
    summary: 'Invite a customer or contact',
    description:
      'Send exactly one of `customerId` or `contactId` (one of the team’s); a contact’s invite also records the contact’s customer. Inviting the same customer or contact twice is a 409. An invite is a record only: sending the invitation is a campaign or message.',
    errors: [409],
  },
  delete: {
    summary: 'Withdraw an invite',
    description: 'An invite that has been answered is kept (409): the RSVP points at it.',
    inUse: 'The invite has been answered; its RSVP points at it',
  },
});

export const rsvps = defineResource(events, {
  name: 'SocialEventRsvp',
  path: '/rsvps',
  id: 'rsvpId',
  label: 'RSVP',
  record: socialEvent.V1SocialEventRsvp,
  createBody: socialEvent.V1SocialEventRsvpCreate,
  updateBody: socialEvent.V1SocialEventRsvpUpdate,
  filters: { rsvpOptionId: z.uuid().optional(), customerId: z.uuid().optional() },
  operations: ['list', 'get', 'create', 'update'],
  create: {
    summary: 'Record a guest’s answer',
    description:
      '`rsvpOptionId` is one of this event’s options. Say who answers with `inviteId` (an invite of this event: its customer and contact are copied), or `customerId`/`contactId`, or `name`/`email` for a guest who is not a customer. An invite is answered once (409 for a second RSVP: update the first).',
    errors: [409],
  },
  update: {
    summary: 'Change an RSVP',
    description:
      'A changed `rsvpOptionId` (one of this event’s options) moves `respondedAt` to now. Who answered does not change.',
  },
});
