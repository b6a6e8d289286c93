import { defineEndpoint } from '../endpoint.js';
import { listQueryShape, listResponse } from '../schemas/common.js';
import { EventTypeScope, V1EventType } from '../schemas/event-type.js';
import { z } from '../zod.js';

export const listEventTypes = defineEndpoint({
  operationId: 'listEventTypes',
  surface: 'v1',
  method: 'get',
  path: '/event-types',
  summary: 'List event types',
  description: 'Every team starts with the default types, among them `drop_off` and `pick_up`.',
  scopes: { all: [], any: ['read:cars', 'read:appointments'] },
  sdk: { namespace: ['eventTypes'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    scope: EventTypeScope.optional().openapi({ description: 'Only types of this scope' }),
  }),
  response: { status: 200, description: 'A page of event types', schema: listResponse(V1EventType) },
  paginated: true,
});
