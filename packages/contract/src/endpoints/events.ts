import { defineEndpoint } from '../endpoint.js';
import { DEFAULT_EVENTS_RETENTION_DAYS, EventsPage, EventsQuery } from '../schemas/event.js';
import { SCOPE_RESOURCES } from '../scopes.js';

export const listEvents = defineEndpoint({
  operationId: 'listEvents',
  surface: 'v1',
  method: 'get',
  path: '/events',
  summary: 'The team’s changes, in the order they happened',
  description: `Every create, update and delete of the team’s records, recorded in the same transaction as the change, each with the next \`cursor\` of the team’s feed: read with \`after\` set to the last cursor seen and nothing is missed or repeated. A key sees only events of the records it can read (a customer event needs \`read:customers\`). Events are kept ${DEFAULT_EVENTS_RETENTION_DAYS} days unless the server is configured otherwise; an older \`after\`, or one past the feed’s end, answers 410.`,
  // Webhook endpoints are settings, not records with events: read:webhooks alone reads no event.
  scopes: {
    all: [],
    any: SCOPE_RESOURCES.filter((resource) => resource !== 'webhooks').map((resource) => `read:${resource}` as const),
  },
  sdk: { namespace: ['events'], method: 'list' },
  query: EventsQuery,
  response: { status: 200, description: 'A page of the feed', schema: EventsPage },
  extension: 'events',
  errors: [410],
});
