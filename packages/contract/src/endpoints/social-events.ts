import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, TimestampWithOffset } from '../schemas/common.js';
import {
  SocialEventStatus,
  V1RsvpOption,
  V1RsvpOptionCreate,
  V1RsvpOptionUpdate,
  V1SocialEvent,
  V1SocialEventCreate,
  V1SocialEventInvite,
  V1SocialEventInviteCreate,
  V1SocialEventRsvp,
  V1SocialEventRsvpCreate,
  V1SocialEventRsvpUpdate,
  V1SocialEventUpdate,
} from '../schemas/social-event.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('social-events') };
const write = { all: writeScopes('social-events') };

export const listSocialEvents = defineEndpoint({
  operationId: 'listSocialEvents',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events',
  summary: 'List social events',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    from: TimestampWithOffset.optional().openapi({
      description: 'Only events ending (or, without endsAt, starting) at or after this time',
    }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only events starting before this time' }),
    locationId: z.uuid().optional(),
    status: SocialEventStatus.optional(),
  }),
  response: { status: 200, description: 'A page of social events', schema: listResponse(V1SocialEvent) },
  paginated: true,
});

export const getSocialEvent = defineEndpoint({
  operationId: 'getSocialEvent',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}',
  summary: 'Get a social event',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents'], method: 'get' },
  params: idParams('eventId'),
  response: { status: 200, description: 'The event', schema: dataResponse(V1SocialEvent) },
  resourceName: 'Social event',
  errors: [404],
});

export const createSocialEvent = defineEndpoint({
  operationId: 'createSocialEvent',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-events',
  summary: 'Create a social event',
  description:
    '`locationId` places it at one of the team’s locations; `venue` describes a place elsewhere. `capacity` is the planned head count and is not enforced.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents'], method: 'create' },
  body: V1SocialEventCreate,
  response: { status: 201, description: 'The event', schema: dataResponse(V1SocialEvent) },
});

export const updateSocialEvent = defineEndpoint({
  operationId: 'updateSocialEvent',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/social-events/{eventId}',
  summary: 'Update or cancel a social event',
  description:
    '`status: cancelled` keeps the event with its invites and RSVPs (so guests can be told); DELETE removes them.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents'], method: 'update' },
  params: idParams('eventId'),
  body: V1SocialEventUpdate,
  response: { status: 200, description: 'The event', schema: dataResponse(V1SocialEvent) },
  resourceName: 'Social event',
  errors: [404],
});

export const deleteSocialEvent = defineEndpoint({
  operationId: 'deleteSocialEvent',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/social-events/{eventId}',
  summary: 'Delete a social event and its staff data',
  description:
    'Removes the event, its RSVPs, invites and RSVP options in one transaction: either all of them go or nothing changes. Customers and contacts are untouched.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents'], method: 'delete' },
  params: idParams('eventId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Social event',
  errors: [404],
});

export const listRsvpOptions = defineEndpoint({
  operationId: 'listRsvpOptions',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/rsvp-options',
  summary: 'List an event’s RSVP options',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvpOptions'], method: 'list' },
  params: idParams('eventId'),
  query: z.strictObject(listQueryShape),
  response: { status: 200, description: 'A page of options', schema: listResponse(V1RsvpOption) },
  paginated: true,
  resourceName: 'Social event',
  errors: [404],
});

export const getRsvpOption = defineEndpoint({
  operationId: 'getRsvpOption',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/rsvp-options/{rsvpOptionId}',
  summary: 'Get an RSVP option',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvpOptions'], method: 'get' },
  params: idParams('eventId', 'rsvpOptionId'),
  response: { status: 200, description: 'The option', schema: dataResponse(V1RsvpOption) },
  resourceName: 'RSVP option',
  errors: [404],
});

export const createRsvpOption = defineEndpoint({
  operationId: 'createRsvpOption',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-events/{eventId}/rsvp-options',
  summary: 'Add an RSVP option to an event',
  description:
    'The answers guests choose from, e.g. “Attending” (`attending: true`) and “Can’t make it” (`attending: false`).',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvpOptions'], method: 'create' },
  params: idParams('eventId'),
  body: V1RsvpOptionCreate,
  response: { status: 201, description: 'The option', schema: dataResponse(V1RsvpOption) },
  resourceName: 'Social event',
  errors: [404],
});

export const updateRsvpOption = defineEndpoint({
  operationId: 'updateRsvpOption',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/social-events/{eventId}/rsvp-options/{rsvpOptionId}',
  summary: 'Update an RSVP option',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvpOptions'], method: 'update' },
  params: idParams('eventId', 'rsvpOptionId'),
  body: V1RsvpOptionUpdate,
  response: { status: 200, description: 'The option', schema: dataResponse(V1RsvpOption) },
  resourceName: 'RSVP option',
  errors: [404],
});

export const deleteRsvpOption = defineEndpoint({
  operationId: 'deleteRsvpOption',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/social-events/{eventId}/rsvp-options/{rsvpOptionId}',
  summary: 'Delete an RSVP option nobody chose',
  description: 'An option that RSVPs chose is kept (409): move those RSVPs to another option first.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvpOptions'], method: 'delete' },
  params: idParams('eventId', 'rsvpOptionId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'RSVP option',
  errors: [404, 409],
});

export const listSocialEventInvites = defineEndpoint({
  operationId: 'listSocialEventInvites',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/invites',
  summary: 'List an event’s invites',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'invites'], method: 'list' },
  params: idParams('eventId'),
  query: z.strictObject({ ...listQueryShape, customerId: z.uuid().optional() }),
  response: { status: 200, description: 'A page of invites', schema: listResponse(V1SocialEventInvite) },
  paginated: true,
  resourceName: 'Social event',
  errors: [404],
});

export const getSocialEventInvite = defineEndpoint({
  operationId: 'getSocialEventInvite',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/invites/{inviteId}',
  summary: 'Get an invite',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'invites'], method: 'get' },
  params: idParams('eventId', 'inviteId'),
  response: { status: 200, description: 'The invite', schema: dataResponse(V1SocialEventInvite) },
  resourceName: 'Invite',
  errors: [404],
});

export const createSocialEventInvite = defineEndpoint({
  operationId: 'createSocialEventInvite',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-events/{eventId}/invites',
  summary: 'Invite a customer or contact',
  description:
    'Send exactly one of `customerId` or `contactId` (one of the team’s); a contact’s invite also records the contact’s customer. Inviting the same customer or contact twice is a 409. An invite is a record only: sending the invitation is a campaign or message.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'invites'], method: 'create' },
  params: idParams('eventId'),
  body: V1SocialEventInviteCreate,
  response: { status: 201, description: 'The invite', schema: dataResponse(V1SocialEventInvite) },
  resourceName: 'Social event',
  errors: [404, 409],
});

export const deleteSocialEventInvite = defineEndpoint({
  operationId: 'deleteSocialEventInvite',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/social-events/{eventId}/invites/{inviteId}',
  summary: 'Withdraw an invite',
  description: 'An invite that has been answered is kept (409): the RSVP points at it.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'invites'], method: 'delete' },
  params: idParams('eventId', 'inviteId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Invite',
  errors: [404, 409],
});

export const listSocialEventRsvps = defineEndpoint({
  operationId: 'listSocialEventRsvps',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/rsvps',
  summary: 'List an event’s RSVPs',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvps'], method: 'list' },
  params: idParams('eventId'),
  query: z.strictObject({ ...listQueryShape, rsvpOptionId: z.uuid().optional(), customerId: z.uuid().optional() }),
  response: { status: 200, description: 'A page of RSVPs', schema: listResponse(V1SocialEventRsvp) },
  paginated: true,
  resourceName: 'Social event',
  errors: [404],
});

export const getSocialEventRsvp = defineEndpoint({
  operationId: 'getSocialEventRsvp',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-events/{eventId}/rsvps/{rsvpId}',
  summary: 'Get an RSVP',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvps'], method: 'get' },
  params: idParams('eventId', 'rsvpId'),
  response: { status: 200, description: 'The RSVP', schema: dataResponse(V1SocialEventRsvp) },
  resourceName: 'RSVP',
  errors: [404],
});

export const createSocialEventRsvp = defineEndpoint({
  operationId: 'createSocialEventRsvp',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-events/{eventId}/rsvps',
  summary: 'Record a guest’s answer',
  description:
    '`rsvpOptionId` is one of this event’s options. Say who answers with `inviteId` (an invite of this event: its customer and contact are copied), or `customerId`/`contactId`, or `name`/`email` for a guest who is not a customer. An invite is answered once (409 for a second RSVP: update the first).',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvps'], method: 'create' },
  params: idParams('eventId'),
  body: V1SocialEventRsvpCreate,
  response: { status: 201, description: 'The RSVP', schema: dataResponse(V1SocialEventRsvp) },
  resourceName: 'Social event',
  errors: [404, 409],
});

export const updateSocialEventRsvp = defineEndpoint({
  operationId: 'updateSocialEventRsvp',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/social-events/{eventId}/rsvps/{rsvpId}',
  summary: 'Change an RSVP',
  description:
    'A changed `rsvpOptionId` (one of this event’s options) moves `respondedAt` to now. Who answered does not change.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialEvents', 'rsvps'], method: 'update' },
  params: idParams('eventId', 'rsvpId'),
  body: V1SocialEventRsvpUpdate,
  response: { status: 200, description: 'The RSVP', schema: dataResponse(V1SocialEventRsvp) },
  resourceName: 'RSVP',
  errors: [404],
});
