import { defineResource } from '../define-resource.js';
import { IndexedText, NameText } from '../schemas/bounds.js';
import { V1Car, V1CarCreate, V1CarUpdate } from '../schemas/car.js';
import { V1CarEvent, V1CarEventCreate, V1CarPhoto, V1CarPhotoCreate } from '../schemas/car-event.js';
import { z } from '../zod.js';
import { v1 } from './groups.js';
import { carEventFieldScopes, carPlacementFieldScopes } from './parking-field-scopes.js';

const PLACEMENT =
  '`parkingSpotId` and `parkingZoneId` place the car as a drop-off does, in one transaction: the spot or zone must be the team’s own (400 naming the field), the spot free (409), and the car’s open parking stay ends and a new one starts. `parkingSpotId` alone puts the car in the spot’s zone; with both, the spot must be in that zone. `null` (either field, without an id in the other) takes the car out of parking and frees its spot. A placement equal to the car’s current one changes nothing.';
const placement = {
  fieldScopes: carPlacementFieldScopes,
  references: ['customerId', 'locationId', 'parkingSpotId', 'parkingZoneId'],
  errors: [409],
} as const;

const cars = defineResource(v1, {
  name: 'Car',
  path: '/cars',
  scope: 'cars',
  record: V1Car,
  createBody: V1CarCreate,
  updateBody: V1CarUpdate,
  filters: {
    customerId: z.uuid().optional().openapi({ description: 'Only cars of this customer' }),
    locationId: z.uuid().optional().openapi({ description: 'Only cars at this location' }),
    vin: IndexedText.min(1).optional().openapi({ description: 'Exact VIN' }),
    stockNumber: IndexedText.min(1).optional().openapi({ description: 'Exact stock number' }),
  },
  operations: ['list', 'get', 'create', 'update'],
  list: { description: 'Most recently updated first (`updatedAt desc, id desc`).' },
  create: { description: PLACEMENT, response: 'The created car', ...placement },
  update: {
    description: `Only the fields sent change; \`null\` clears a nullable field.\n\n${PLACEMENT}`,
    response: 'The updated car',
    ...placement,
  },
});

const events = defineResource(cars, {
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
  list: { summary: 'List a car’s events' },
  get: { summary: 'Get one of a car’s events' },
});

const photos = defineResource(cars, {
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
      'One photo per request, as `base64` or as an https `sourceUrl` the server fetches. At most 3 MiB decoded (413). `contentType` must be an image type matching the bytes (JPEG, PNG, GIF, WebP, HEIC/AVIF). `sessionId` must be the session of one of this car’s events.',
    references: ['sessionId'],
    errors: [413],
  },
  list: { summary: 'List a car’s gallery' },
  get: { summary: 'Get one photo of a car (its metadata; the bytes are at its `url`)' },
});

export const { listCars, getCar, createCar, updateCar } = cars.endpoints;
export const { createCarEvent, listCarEvents, getCarEvent } = events.endpoints;
export const { createCarPhoto, listCarPhotos, getCarPhoto } = photos.endpoints;
