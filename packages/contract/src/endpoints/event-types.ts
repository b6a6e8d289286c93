import { defineEndpoint } from '../endpoint.js';
import { dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import { EventTypeScope, V1EventType, V1EventTypeCreate, V1EventTypeUpdate } from '../schemas/event-type.js';
import { writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

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

export const getEventType = defineEndpoint({
  operationId: 'getEventType',
  surface: 'v1',
  method: 'get',
  path: '/event-types/{eventTypeId}',
  summary: 'Get an event type',
  scopes: { all: [], any: ['read:cars', 'read:appointments'] },
  sdk: { namespace: ['eventTypes'], method: 'get' },
  params: idParams('eventTypeId'),
  response: { status: 200, description: 'The event type', schema: dataResponse(V1EventType) },
  resourceName: 'Event type',
  errors: [404],
});

export const createEventType = defineEndpoint({
  operationId: 'createEventType',
  surface: 'v1',
  method: 'post',
  path: '/event-types',
  summary: 'Create a custom event type',
  description:
    'Event types configure scheduling, so writing them needs the appointments scopes. `value` is unique per team (409).',
  scopes: { all: writeScopes('appointments') },
  sdk: { namespace: ['eventTypes'], method: 'create' },
  body: V1EventTypeCreate,
  response: { status: 201, description: 'The event type', schema: dataResponse(V1EventType) },
  errors: [409],
});

export const updateEventType = defineEndpoint({
  operationId: 'updateEventType',
  surface: 'v1',
  method: 'patch',
  path: '/event-types/{eventTypeId}',
  summary: 'Update an event type',
  scopes: { all: writeScopes('appointments') },
  sdk: { namespace: ['eventTypes'], method: 'update' },
  params: idParams('eventTypeId'),
  body: V1EventTypeUpdate,
  response: { status: 200, description: 'The event type', schema: dataResponse(V1EventType) },
  resourceName: 'Event type',
  errors: [404],
});
