import { z } from '../zod.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';

export const MAX_CALENDAR_DAYS = 366;

export const CalendarEntry = z
  .object({
    kind: z.enum(['content_step', 'social_post', 'social_event']),
    id: Uuid.openapi({ description: 'The id of the step, post or event' }),
    title: z.string().openapi({ description: 'The step’s, post’s or event’s name (a post’s first line)' }),
    at: Timestamp.openapi({ description: 'When it happens: scheduled send, post time or event start' }),
    endsAt: Timestamp.nullable().openapi({ description: 'Events only: when the event ends' }),
    campaignId: Uuid.nullable(),
    status: z
      .string()
      .nullable()
      .openapi({ description: 'The post’s or event’s status; for steps `sent` or `scheduled`' }),
  })
  .openapi('CalendarEntry');
export type CalendarEntry = z.infer<typeof CalendarEntry>;

export const CalendarQuery = z
  .strictObject({
    from: TimestampWithOffset.openapi({ description: 'Window start (inclusive)' }),
    to: TimestampWithOffset.openapi({ description: 'Window end (exclusive)' }),
  })
  .superRefine((q, ctx) => {
    const span = Date.parse(q.to) - Date.parse(q.from);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    else if (span > MAX_CALENDAR_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `The window is at most ${MAX_CALENDAR_DAYS} days` });
  });
