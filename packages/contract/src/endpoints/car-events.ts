import { defineResource } from '../define-resource.js';
import { NameText } from '../schemas/bounds.js';
import { V1CarEvent, V1CarEventCreate, V1CarPhoto, V1CarPhotoCreate } from '../schemas/car-event.js';
import { z } from '../zod.js';
import { cars } from './cars.js';
import { carEventFieldScopes } from './parking-field-scopes.js';

export const events = defineResource(cars, {
  name: 'CarEvent',
  path: '/events',
  record: V1CarEvent,
  createBody: V1CarEventCreate,
  filters: { activityType: NameText.min(1).optional() },
  operations: ['create', 'list', 'get'],
  create: {
    summary: 'Log a car event (drop-off, pick-up, …) — a photo session',
    description: [
      '`activityType` is the `value` of one of the team’s vehicle-scope event types. When the type requires a parking spot (drop-off), send exactly one of `parkingSpotId` or `parkingZoneId`; the car’s previous stay ends and a new one starts in one transaction, and a spot holding another car is a 409. `pick_up` ends the car’s stay and clears its spot.',
      '`occurredAt` may lie in the past but at most 5 minutes in the future (clock skew). A drop-off or pick-up must keep the parking history consistent: it may not be earlier than the start of the stay it ends, nor than the end of an earlier stay of the car or of the spot (409 otherwise).',
      'The `Location` header names the event: `GET /cars/{carId}/events/{carEventId}`.',
    ].join('\n\n'),
    response: 'The event, with its `sessionId`',
    fieldScopes: carEventFieldScopes,
    references: ['parkingSpotId', 'parkingZoneId'],
    errors: [409],
  },
  get: { summary: 'Get one of a car’s events' },
});

export const photos = defineResource(cars, {
  name: 'CarPhoto',
  path: '/photos',
  id: 'photoId',
  record: V1CarPhoto,
  createBody: V1CarPhotoCreate,
  filters: { sessionId: z.uuid().optional() },
  operations: ['create', 'list', 'get'],
  create: {
    summary: 'Attach one photo to a car’s event session',
    description:
      'One photo per request, as `base64` or as an https `sourceUrl` the server fetches. At most 3 MiB decoded (413). `contentType` must be an image type matching the bytes (JPEG, PNG, GIF, WebP, HEIC/AVIF). `sessionId` must be the session of one of this car’s events, or of an appointment whose `carId` is this car.',
    references: ['sessionId'],
    errors: [413],
    binaryUpload: true,
  },
  list: { summary: 'List a car’s gallery' },
  get: { summary: 'Get one photo of a car (its metadata; the bytes are at its `url`)' },
});
