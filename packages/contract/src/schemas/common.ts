import { z } from '../zod.js';
import { INSTANT_RANGE_MESSAGE, INT4_MAX, isStorableInstant } from './bounds.js';

export const Uuid = z.uuid().openapi({ example: '0b6f4c3e-8a8f-4d0e-9a57-2f1c5d7e9b10' });

/** Timestamps the server returns: ISO 8601, UTC, with `Z`. */
export const Timestamp = z.iso.datetime({ offset: true }).openapi({ example: '2026-01-15T09:30:00.000Z' });

/**
 * Timestamps a client sends: ISO 8601 with `Z` or an explicit offset; a local time is ambiguous. The one
 * date-time schema of every input (body, query): years 0001–9999, which the database and the sync hold.
 */
export const TimestampWithOffset = z.iso
  .datetime({ offset: true, message: 'Expected an ISO 8601 timestamp with a timezone offset' })
  .max(64)
  .refine((v) => isStorableInstant(v), INSTANT_RANGE_MESSAGE)
  .openapi({ example: '2026-01-15T10:30:00+01:00' });

/** Path parameter for a record id. */
export const IdParam = z.uuid({ message: 'Expected a UUID' });

export const ERROR_CODES = [
  'validation_error',
  'invalid_json',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'gone',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ValidationIssue = z
  .object({
    path: z.string().openapi({ description: 'Dotted path of the offending field; empty for the whole body' }),
    message: z.string(),
  })
  .openapi('ValidationIssue');

export const ApiError = z
  .object({
    error: z.string().openapi({ description: 'Human-readable message', example: 'Validation failed' }),
    code: z.enum(ERROR_CODES).optional().openapi({ description: 'Stable machine-readable code' }),
    // An array of issues for `validation_error`; a few conflicts add an object (e.g. the `carId` holding a
    // spot, the idempotency `reason`); null otherwise.
    details: z
      .union([z.array(ValidationIssue), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))])
      .nullable()
      .optional()
      .openapi({
        description:
          'For `validation_error`, one `{path, message}` per problem; for some conflicts, an object naming the record in the way; otherwise null',
      }),
  })
  .openapi('ApiError');
export type ApiError = z.infer<typeof ApiError>;

/** Boolean query flag: `true`/`false` on the wire, a boolean in typed clients. */
export const QueryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
  .openapi({ type: 'boolean' });

export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_IDS = 200;

const IdsQuery = z
  .union([
    z.array(z.string().max(36)).max(MAX_IDS),
    z
      .string()
      .max(MAX_IDS * 37)
      .transform((s) => (s === '' ? [] : s.split(','))),
  ])
  .pipe(z.array(z.uuid({ message: 'Expected a UUID' })).max(MAX_IDS, `At most ${MAX_IDS} ids`))
  .openapi({
    type: 'string',
    description: `Comma-separated record ids, up to ${MAX_IDS}; ids unknown to the team are absent from the result`,
  });

const UpdatedAfterQuery = z
  .union([z.date().refine((d) => isStorableInstant(d), INSTANT_RANGE_MESSAGE), TimestampWithOffset])
  .transform((v) => (v instanceof Date ? v : new Date(v)))
  .openapi({
    type: 'string',
    format: 'date-time',
    description: 'Only records updated at or after this time (inclusive). Must carry a timezone offset.',
  });

/**
 * An integer query parameter, written in decimal digits only. `z.coerce.number()` is `Number(value)`, which
 * reads `0x10` as 16, `1e3` as 1000, ` 7 ` as 7 and an empty value as 0 (so `after=` meant "from cursor 0"
 * rather than being refused): anything but digits stays a string here and fails as "expected number".
 */
export function decimalIntegerQuery(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value),
    z.number({ error: 'Expected an integer in decimal digits' }).int().min(min).max(max),
  );
}

/** Query parameters every list endpoint accepts. */
export const listQueryShape = {
  page: decimalIntegerQuery(1, INT4_MAX).default(1).openapi({ description: '1-based page number', example: 1 }),
  limit: decimalIntegerQuery(1, MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ description: `Records per page (1 to ${MAX_PAGE_SIZE})`, example: DEFAULT_PAGE_SIZE }),
  updatedAfter: UpdatedAfterQuery.optional(),
  ids: IdsQuery.optional(),
};
export const ListQuery = z.strictObject(listQueryShape);
export type ListQuery = z.input<typeof ListQuery>;

/** `{ data: [record], page, limit, total }` */
export function listResponse<T extends z.ZodType>(record: T) {
  return z.object({
    data: z.array(record),
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    total: z.number().int().min(0),
  });
}

/** `{ data: record }` */
export function dataResponse<T extends z.ZodType>(record: T) {
  return z.object({ data: record });
}

export const DeletedRecord = z.object({ id: Uuid, deleted: z.literal(true) }).openapi('DeletedRecord');
