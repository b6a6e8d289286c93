import { defineEndpoint } from '../endpoint.js';
import { NameText } from '../schemas/bounds.js';
import { V1CarEvent, V1CarEventCreate, V1CarPhoto, V1CarPhotoCreate } from '../schemas/car-event.js';
import { dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { carEventFieldScopes } from './parking-field-scopes.js';
import { idParams } from './shared.js';

export const createCarEvent = defineEndpoint({
  operationId: 'createCarEvent',
  surface: 'v1',
  method: 'post',
  path: '/cars/{carId}/events',
  summary: 'Log a car event (drop-off, pick-up, …) — a photo session',
  description: [
    '`activityType` is the `value` of one of the team’s vehicle-scope event types. When the type requires a parking spot (drop-off), send exactly one of `parkingSpotId` or `parkingZoneId`; the car’s previous stay ends and a new one starts in one transaction, and a spot holding another car is a 409. `pick_up` ends the car’s stay and clears its spot.',
    '`occurredAt` may lie in the past but at most 5 minutes in the future (clock skew). A drop-off or pick-up must keep the parking history consistent: it may not be earlier than the start of the stay it ends, nor than the end of an earlier stay of the car or of the spot (409 otherwise).',
    'The `Location` header names the event: `GET /cars/{carId}/events/{carEventId}`.',
  ].join('\n\n'),
  scopes: { all: writeScopes('cars') },
  fieldScopes: carEventFieldScopes,
  references: ['parkingSpotId', 'parkingZoneId'],
  sdk: { namespace: ['cars', 'events'], method: 'create' },
  params: idParams('carId'),
  body: V1CarEventCreate,
  response: { status: 201, description: 'The event, with its `sessionId`', schema: dataResponse(V1CarEvent) },
  resourceName: 'Car',
  errors: [404, 409],
});

export const listCarEvents = defineEndpoint({
  operationId: 'listCarEvents',
  surface: 'v1',
  method: 'get',
  path: '/cars/{carId}/events',
  summary: 'List a car’s events',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars', 'events'], method: 'list' },
  params: idParams('carId'),
  query: z.strictObject({ ...listQueryShape, activityType: NameText.min(1).optional() }),
  response: { status: 200, description: 'A page of events', schema: listResponse(V1CarEvent) },
  paginated: true,
  resourceName: 'Car',
  errors: [404],
});

export const getCarEvent = defineEndpoint({
  operationId: 'getCarEvent',
  surface: 'v1',
  method: 'get',
  path: '/cars/{carId}/events/{carEventId}',
  summary: 'Get one of a car’s events',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars', 'events'], method: 'get' },
  params: idParams('carId', 'carEventId'),
  response: { status: 200, description: 'The event', schema: dataResponse(V1CarEvent) },
  resourceName: 'Car event',
  errors: [404],
});

export const createCarPhoto = defineEndpoint({
  operationId: 'createCarPhoto',
  surface: 'v1',
  method: 'post',
  path: '/cars/{carId}/photos',
  summary: 'Attach one photo to a car’s event session',
  description:
    'One photo per request, as `base64` or as an https `sourceUrl` the server fetches. At most 3 MiB decoded (413). `contentType` must be an image type matching the bytes (JPEG, PNG, GIF, WebP, HEIC/AVIF). `sessionId` must be the session of one of this car’s events.',
  scopes: { all: writeScopes('cars') },
  sdk: { namespace: ['cars', 'photos'], method: 'create' },
  references: ['sessionId'],
  params: idParams('carId'),
  body: V1CarPhotoCreate,
  response: { status: 201, description: 'The photo', schema: dataResponse(V1CarPhoto) },
  resourceName: 'Car',
  errors: [404, 413],
});

export const listCarPhotos = defineEndpoint({
  operationId: 'listCarPhotos',
  surface: 'v1',
  method: 'get',
  path: '/cars/{carId}/photos',
  summary: 'List a car’s gallery',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars', 'photos'], method: 'list' },
  params: idParams('carId'),
  query: z.strictObject({ ...listQueryShape, sessionId: z.uuid().optional() }),
  response: { status: 200, description: 'A page of photos', schema: listResponse(V1CarPhoto) },
  paginated: true,
  resourceName: 'Car',
  errors: [404],
});

export const getCarPhoto = defineEndpoint({
  operationId: 'getCarPhoto',
  surface: 'v1',
  method: 'get',
  path: '/cars/{carId}/photos/{photoId}',
  summary: 'Get one photo of a car (its metadata; the bytes are at its `url`)',
  scopes: { all: readScopes('cars') },
  sdk: { namespace: ['cars', 'photos'], method: 'get' },
  params: idParams('carId', 'photoId'),
  response: { status: 200, description: 'The photo', schema: dataResponse(V1CarPhoto) },
  resourceName: 'Car photo',
  errors: [404],
});
