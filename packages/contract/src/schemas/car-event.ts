import { EXAMPLE_UUID } from '../openapi/schema-example.js';
import { z } from '../zod.js';
import { LongText, NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { hasOneImageSource, IMAGE_UPLOAD_EXAMPLE, imageUploadFields, storedImageFields } from './image-upload.js';
import { teamRecord } from './team-record.js';

export const V1CarEvent = teamRecord(
  'V1CarEvent',
  {
    carId: Uuid,
    activityType: z.string().openapi({ description: 'The `value` of the event type, e.g. `drop_off`' }),
    eventTypeId: Uuid,
    parkingSpotId: Uuid.nullable(),
    parkingZoneId: Uuid.nullable(),
    notes: z.string().nullable(),
    occurredAt: Timestamp,
    sessionId: Uuid.openapi({ description: 'The photo session: pass it to `POST /cars/{carId}/photos`' }),
  },
  'Something that happened to a car (drop-off, pick-up, …): a photo session',
);
export type V1CarEvent = z.infer<typeof V1CarEvent>;

/** How far in the future an `occurredAt` may lie: device clocks drift, the facility's history must not. */
export const OCCURRED_AT_MAX_FUTURE_MS = 5 * 60 * 1000;

export const V1CarEventCreate = z
  .strictObject({
    // Not `drop_off`: that needs a spot or zone, and an example names no record (so it is accepted as shown).
    activityType: NameText.min(1).openapi({ example: 'inspection' }),
    parkingSpotId: Uuid.optional(),
    parkingZoneId: Uuid.optional(),
    notes: LongText.optional(),
    occurredAt: TimestampWithOffset.optional().openapi({
      description: 'Backdates the event (default now); at most 5 minutes in the future, to allow for clock skew',
    }),
  })
  .openapi('V1CarEventCreate');
export type V1CarEventCreate = z.input<typeof V1CarEventCreate>;

export const V1CarPhoto = z
  .object({
    id: Uuid,
    carId: Uuid,
    sessionId: Uuid,
    ...storedImageFields,
    url: z.string().openapi({ description: '`/api/media/<id>`: the bytes, for the team’s keys' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('V1CarPhoto');
export type V1CarPhoto = z.infer<typeof V1CarPhoto>;

export const V1CarPhotoCreate = z
  .strictObject({
    sessionId: Uuid.openapi({
      description: 'The session the photo belongs to: of one of the car’s events, or of an appointment for the car',
    }),
    ...imageUploadFields,
  })
  .refine(...hasOneImageSource)
  .openapi('V1CarPhotoCreate', { example: { sessionId: EXAMPLE_UUID, ...IMAGE_UPLOAD_EXAMPLE } });
export type V1CarPhotoCreate = z.input<typeof V1CarPhotoCreate>;
