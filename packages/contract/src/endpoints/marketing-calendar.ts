import { defineEndpoint } from '../endpoint.js';
import { CalendarEntry, CalendarQuery, MAX_CALENDAR_DAYS } from '../schemas/marketing-calendar.js';
import { z } from '../zod.js';

export const getMarketingCalendar = defineEndpoint({
  operationId: 'getMarketingCalendar',
  surface: 'v1',
  method: 'get',
  path: '/marketing/calendar',
  summary: 'What marketing has planned in a window',
  description: `Content steps with a \`scheduledAt\`, social posts (scheduled or published) and social events in \`[from, to)\`, merged into one list ordered by \`at\` then \`id\`. Needs \`read:campaigns\` or \`read:social-events\`; a key with only one of them sees only its entries (steps and posts need campaigns, events need social-events). The window is at most ${MAX_CALENDAR_DAYS} days and is returned whole (not paged).`,
  scopes: { all: [], any: ['read:campaigns', 'read:social-events'] },
  sdk: { namespace: ['marketing'], method: 'calendar' },
  query: CalendarQuery,
  response: {
    status: 200,
    description: 'The entries in the window',
    schema: z.object({ data: z.array(CalendarEntry) }),
  },
});
