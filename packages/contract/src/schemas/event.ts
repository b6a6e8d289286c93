import { z } from '../zod.js';
import { decimalIntegerQuery, Timestamp, Uuid } from './common.js';

/** The most events one page of the feed returns. */
export const MAX_EVENTS_PAGE = 500;
export const DEFAULT_EVENTS_PAGE = 100;
/** The longest a feed request may wait for the next event (`wait`), in seconds. */
export const MAX_EVENTS_WAIT_SECONDS = 30;
/**
 * Long polls one key may hold open at once on a server instance: one more answers at once with what there
 * is, as `wait=0` would, so a looping client cannot tie up the instance's connections and polls.
 */
export const MAX_EVENTS_WAITS_PER_KEY = 5;
/** How long the reference server keeps events unless configured otherwise. */
export const DEFAULT_EVENTS_RETENTION_DAYS = 30;

/** `created`, `updated` (a restore is one), or `deleted` (soft or hard). */
export const EventAction = z.enum(['created', 'updated', 'deleted']);
export type EventAction = z.infer<typeof EventAction>;

export const V1Event = z
  .object({
    id: Uuid.openapi({ description: 'Unique across every team and instance: a receiver dedupes by it' }),
    cursor: z.number().int().min(1).openapi({
      description:
        'The event’s position in the team’s feed: every change of the team’s records gets the next one, in the order the changes committed. Pass the last one seen as `after`.',
      example: 1042,
    }),
    type: z.string().openapi({ description: '`<resource>.<action>`', example: 'car.updated' }),
    resource: z.string().openapi({
      description: 'The kind of record, in snake_case (`car`, `parking_zone`, `rsvp_option`)',
      example: 'car',
    }),
    action: EventAction,
    recordId: Uuid,
    recordUpdatedAt: Timestamp.nullable().openapi({
      description:
        'The record’s `updatedAt` as the change wrote it (for a hard delete, its last); null for records without one',
    }),
    data: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        'The record as the change wrote it, as `GET` shows it; a soft delete carries the record with its `deletedAt`, a hard delete null',
    }),
    createdAt: Timestamp,
  })
  .openapi('V1Event');
export type V1Event = z.infer<typeof V1Event>;

const cursorQuery = (description: string) =>
  // A bigint column: the feed's cursors are not bounded by int4.
  decimalIntegerQuery(0, Number.MAX_SAFE_INTEGER).meta({ description, format: 'int64' });

export const EventsQuery = z.strictObject({
  after: cursorQuery(
    'Only events after this cursor. Without it the feed starts at its oldest retained event. A cursor older than the retention, or past the feed’s end (another team’s, or a database’s since reset), answers 410 `gone`: resync, then follow from the `nextCursor` of `limit=0`.',
  ).optional(),
  limit: decimalIntegerQuery(0, MAX_EVENTS_PAGE)
    .default(DEFAULT_EVENTS_PAGE)
    .openapi({
      description: `Events per page (0 to ${MAX_EVENTS_PAGE}); 0 returns none and \`nextCursor\` is the feed’s current end, where a follower that has just synced starts`,
    }),
  wait: decimalIntegerQuery(0, MAX_EVENTS_WAIT_SECONDS)
    .default(0)
    .openapi({
      description: `Long poll: when nothing follows \`after\`, wait up to this many seconds (at most ${MAX_EVENTS_WAIT_SECONDS}) for the next event before answering an empty page. The key is checked again before a waited answer (revoked, expired or API turned off meanwhile: its 401 or 403). A key holds at most ${MAX_EVENTS_WAITS_PER_KEY} waits at once per server instance; one more answers at once with what there is.`,
    }),
});

export const EventsPage = z
  .object({
    data: z.array(V1Event),
    nextCursor: z.number().int().min(0).openapi({
      description:
        'Pass as `after` for the next page: the last event returned, or past events this key may not read, or the feed’s end when there was nothing',
    }),
    hasMore: z.boolean().openapi({ description: 'More events follow `nextCursor` now' }),
  })
  .openapi('V1EventsPage');
export type EventsPage = z.infer<typeof EventsPage>;
